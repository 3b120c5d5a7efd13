#include <tawa/tile.h>
__global__ void k(tawa::Matrix<const __nv_bfloat16> A) {
  int x = ;
}
