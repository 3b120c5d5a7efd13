// A GEMM tile kernel whose tile shape and element type come from -D flags:
// BM, BN (tile rows of A and B), TAWA_TEST_IN and TAWA_TEST_OUT (element
// types of the inputs and the output).
#include <tawa/tile.h>

__global__ void variant(tawa::Matrix<const TAWA_TEST_IN> A, tawa::Matrix<const TAWA_TEST_IN> B, tawa::Matrix<TAWA_TEST_OUT> C) {
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  tawa::Accumulator<float, BM, BN> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<BM, 64>(A, m0, k0);
    auto b = tawa::load<BN, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

cudaError_t launch(tawa::Matrix<const TAWA_TEST_IN> A, tawa::Matrix<const TAWA_TEST_IN> B, tawa::Matrix<TAWA_TEST_OUT> C,
                   cudaStream_t stream) {
  dim3 grid(tawa::ceil_div(C.cols, BN), tawa::ceil_div(C.rows, BM));
  variant<<<grid, 128, 0, stream>>>(A, B, C);
  return cudaGetLastError();
}
