//===- tawa/runtime.cuh - device runtime of warp-specialized kernels ------===//
//
// Included by the code tawa-rewrite emits: arefs over mbarriers, TMA copies
// and tensor maps, wgmma, warpgroup roles and register reallocation, the
// accumulator epilogue, the row statistics of attention and the launch
// helpers. Header-only; the device pass needs sm_90a.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/aref.cuh"
#include "runtime/cluster.cuh"
#include "runtime/edge_boxes.cuh"
#include "runtime/epilogue.cuh"
#include "runtime/im2col.cuh"
#include "runtime/launch.cuh"
#include "runtime/operand_copy.cuh"
#include "runtime/rows.cuh"
#include "runtime/schedule.cuh"
#include "runtime/split_tail.cuh"
#include "runtime/tf32_split.cuh"
#include "runtime/tma.cuh"
#include "runtime/warpgroup.cuh"
#include "runtime/wgmma.cuh"
