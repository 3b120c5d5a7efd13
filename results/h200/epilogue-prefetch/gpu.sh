#!/usr/bin/env bash
# The broadcast operands of the fused epilogues read before the main loop (new)
# against after it (old), on a Hopper GPU in one call:
#   bash results/h200/epilogue-prefetch/gpu.sh OUT [GEN_DIR]
# GEN_DIR (default gen/epi-pf) holds old/ and new/ as README.md says; the
# checks and timings are those of results/h200/epilogue-broadcast/gpu.sh
# (ROUNDS, TIME_SHAPES), with the builds in build/epi-pf.
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
BUILD_DIR=build/epi-pf exec bash "$repo/results/h200/epilogue-broadcast/gpu.sh" \
  "${1:?usage: gpu.sh OUT [GEN_DIR]}" "${2:-gen/epi-pf}"
