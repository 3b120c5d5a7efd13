// What both kernels' host functions share: the grid of 128 x 256 tiles.
#pragma once

#include <tawa/tile.h>

#ifndef SAMPLE_GEMM
#error "built without the target's compile definitions"
#endif

template <class In, class Out>
bool shapes_agree(In A, In B, Out C) {
  return A.cols == B.cols && A.rows == C.rows && B.rows == C.cols;
}

inline dim3 tile_grid(int rows, int cols) {
  return dim3(tawa::ceil_div(cols, 256), tawa::ceil_div(rows, 128));
}
