// A tile loop in a header: not rewritten from a file that includes it.
#include <tawa/tile.h>

__global__ void in_header(tawa::Matrix<const __nv_bfloat16> A) {
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}
