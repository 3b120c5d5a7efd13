// Type-generic WMMA GEMM as a kernel template (element type and warp layout as
// template parameters), launched from a host function template that a
// dtype switch instantiates for half and bf16 - the dispatch pattern of small
// inference libraries. One fragment per warp, a WARPS_M x WARPS_N grid of
// warps per block, fragments straight from global memory, early exit for
// warps past the matrix. A: M x K row-major, B: K x N row-major, C: float.
// M, N, K multiples of 16.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

template <typename T, int WARPS_M, int WARPS_N>
__global__ void wmma_gemm_t(const T *__restrict__ A, const T *__restrict__ B,
                            float *__restrict__ C, int M, int N, int K) {
  const int warp = threadIdx.x / 32;
  const int row = (blockIdx.y * WARPS_M + warp / WARPS_N) * 16;
  const int col = (blockIdx.x * WARPS_N + warp % WARPS_N) * 16;
  if (row >= M || col >= N) return;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);

#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, A + row * K + k, K);
    wmma::load_matrix_sync(fb, B + k * N + col, N);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(C + row * N + col, fc, N, wmma::mem_row_major);
}

template <typename T>
void run_wmma_gemm(const void *A, const void *B, float *C, int M, int N, int K,
                   cudaStream_t stream) {
  constexpr int WM = 2, WN = 4;
  dim3 block(32 * WM * WN);
  dim3 grid((N + 16 * WN - 1) / (16 * WN), (M + 16 * WM - 1) / (16 * WM));
  wmma_gemm_t<T, WM, WN><<<grid, block, 0, stream>>>(static_cast<const T *>(A),
                                                     static_cast<const T *>(B), C, M, N, K);
}

enum class DType { kHalf, kBF16 };

void wmma_gemm(DType dt, const void *A, const void *B, float *C, int M, int N, int K,
               cudaStream_t stream) {
  switch (dt) {
    case DType::kHalf: run_wmma_gemm<half>(A, B, C, M, N, K, stream); break;
    case DType::kBF16: run_wmma_gemm<__nv_bfloat16>(A, B, C, M, N, K, stream); break;
  }
}
