// The register-prefetch SGEMM of the optimisation tutorials, on half data:
// 128 x 128 x 16 tiles in two buffers, 256 threads, 8 x 8 per thread. The
// next tiles are fetched as float4 into register arrays (ldg_a, ldg_b), A
// written transposed from them; accumulators stored to C as float4.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define FETCH_FLOAT4(pointer) (reinterpret_cast<float4 *>(&(pointer))[0])
#define CONST_FLOAT4(pointer) (reinterpret_cast<const float4 *>(&(pointer))[0])

template <const int BLOCK_SIZE_M, const int BLOCK_SIZE_K, const int BLOCK_SIZE_N,
          const int THREAD_SIZE_Y, const int THREAD_SIZE_X>
__global__ void Hgemm(const half *__restrict__ A, const half *__restrict__ B,
                      float *__restrict__ C, const int M, const int N, const int K) {
  const int bx = blockIdx.x, by = blockIdx.y;
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int tid = threadIdx.x;
  __shared__ half As[2][BLOCK_SIZE_K][BLOCK_SIZE_M];
  __shared__ half Bs[2][BLOCK_SIZE_K][BLOCK_SIZE_N];
  float accum[THREAD_SIZE_Y][THREAD_SIZE_X] = {0};
  half ldg_a_reg[8];
  half ldg_b_reg[8];
  const int A_TILE_ROW = tid / 2, A_TILE_COL = (tid % 2) * 8;
  const int B_TILE_ROW = tid / 16, B_TILE_COL = (tid % 16) * 8;
  const half *a = &A[(BLOCK_SIZE_M * by) * K];
  const half *b = &B[BLOCK_SIZE_N * bx];

  FETCH_FLOAT4(ldg_a_reg[0]) = CONST_FLOAT4(a[A_TILE_ROW * K + A_TILE_COL]);
  for (int i = 0; i < 8; ++i)
    As[0][A_TILE_COL + i][A_TILE_ROW] = ldg_a_reg[i];
  FETCH_FLOAT4(Bs[0][B_TILE_ROW][B_TILE_COL]) = CONST_FLOAT4(b[B_TILE_ROW * N + B_TILE_COL]);
  __syncthreads();

#pragma tawa tile
  for (int tile_idx = 0; tile_idx < K; tile_idx += BLOCK_SIZE_K) {
    const int load_stage_idx = (tile_idx / BLOCK_SIZE_K) % 2;
    const int store_stage_idx = (tile_idx / BLOCK_SIZE_K + 1) % 2;
    if (tile_idx + BLOCK_SIZE_K < K) {
      FETCH_FLOAT4(ldg_a_reg[0]) =
          CONST_FLOAT4(a[A_TILE_ROW * K + tile_idx + BLOCK_SIZE_K + A_TILE_COL]);
      FETCH_FLOAT4(ldg_b_reg[0]) =
          CONST_FLOAT4(b[(tile_idx + BLOCK_SIZE_K + B_TILE_ROW) * N + B_TILE_COL]);
    }
#pragma unroll
    for (int j = 0; j < BLOCK_SIZE_K; ++j) {
      float frag_a[THREAD_SIZE_Y], frag_b[THREAD_SIZE_X];
      for (int y = 0; y < THREAD_SIZE_Y; ++y)
        frag_a[y] = __half2float(As[load_stage_idx][j][THREAD_SIZE_Y * ty + y]);
      for (int x = 0; x < THREAD_SIZE_X; ++x)
        frag_b[x] = __half2float(Bs[load_stage_idx][j][THREAD_SIZE_X * tx + x]);
      for (int y = 0; y < THREAD_SIZE_Y; ++y)
        for (int x = 0; x < THREAD_SIZE_X; ++x)
          accum[y][x] += frag_a[y] * frag_b[x];
    }
    if (tile_idx + BLOCK_SIZE_K < K) {
      for (int i = 0; i < 8; ++i)
        As[store_stage_idx][A_TILE_COL + i][A_TILE_ROW] = ldg_a_reg[i];
      FETCH_FLOAT4(Bs[store_stage_idx][B_TILE_ROW][B_TILE_COL]) = FETCH_FLOAT4(ldg_b_reg[0]);
    }
    __syncthreads();
  }

  for (int y = 0; y < THREAD_SIZE_Y; ++y)
    for (int x = 0; x < THREAD_SIZE_X; x += 4)
      FETCH_FLOAT4(C[(BLOCK_SIZE_M * by + ty * THREAD_SIZE_Y + y) * N + BLOCK_SIZE_N * bx +
                     tx * THREAD_SIZE_X + x]) = FETCH_FLOAT4(accum[y][x]);
}

void hgemm_float4_prefetch(const half *A, const half *B, float *C, int M, int N, int K) {
  dim3 block(256);
  dim3 grid(N / 128, M / 128);
  Hgemm<128, 16, 128, 8, 8><<<grid, block>>>(A, B, C, M, N, K);
}
