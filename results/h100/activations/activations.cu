// Hand-written GEMMs whose epilogue applies an activation, in the classic
// 32 x 32 shared-memory style (bounds-checked, bf16 inputs, fp32
// accumulation and output), each annotated with `#pragma tawa tile`:
//   bias_gelu     C = gelu(A B + bias[col]), GELU's erf form in a __device__
//                 function
//   tanh_gelu     C = GELU's tanh form of alpha A B, written inline
//   bias_silu     C = silu(A B + bias[row]), SiLU in a __device__ function
//   relu_ternary  C = v > 0 ? v : 0 of v = A B
// A M x K, B K x N, C M x N, row-major; bias float. `tawa-rewrite --migrate`
// lifts each into the tile vocabulary with tile.h's activation.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE 32

using bf16 = __nv_bfloat16;

__device__ float gelu(float x) {
  return 0.5f * x * (1.0f + erff(x * 0.7071067811865475f));
}
__device__ float silu(float x) { return x / (1.0f + expf(-x)); }

#define PROLOGUE                                                               \
  __shared__ bf16 As[TILE][TILE];                                              \
  __shared__ bf16 Bs[TILE][TILE];                                              \
  const int tx = threadIdx.x, ty = threadIdx.y;                                \
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;        \
  float acc = 0.0f;
#define K_LOOP                                                                 \
  for (int t = 0; t < K; t += TILE) {                                          \
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16(0.0f);     \
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16(0.0f);   \
    __syncthreads();                                                           \
    for (int k = 0; k < TILE; ++k)                                             \
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);        \
    __syncthreads();                                                           \
  }

__global__ void bias_gelu(const bf16 *A, const bf16 *B, const float *bias,
                          float *C, int M, int N, int K) {
  PROLOGUE
#pragma tawa tile
  K_LOOP
  if (row < M && col < N)
    C[row * N + col] = gelu(acc + bias[col]);
}

__global__ void tanh_gelu(const bf16 *A, const bf16 *B, float *C, int M, int N,
                          int K, float alpha) {
  PROLOGUE
#pragma tawa tile
  K_LOOP
  if (row < M && col < N)
    C[row * N + col] =
        0.5f * (alpha * acc) *
        (1.0f + tanhf(0.7978845608f * ((alpha * acc) + 0.044715f *
                                                           (alpha * acc) *
                                                           (alpha * acc) *
                                                           (alpha * acc))));
}

__global__ void bias_silu(const bf16 *A, const bf16 *B, const float *bias,
                          float *C, int M, int N, int K) {
  PROLOGUE
#pragma tawa tile
  K_LOOP
  if (row < M && col < N)
    C[row * N + col] = silu(acc + bias[row]);
}

__global__ void relu_ternary(const bf16 *A, const bf16 *B, float *C, int M,
                             int N, int K) {
  PROLOGUE
#pragma tawa tile
  K_LOOP
  if (row < M && col < N)
    C[row * N + col] = acc > 0.0f ? acc : 0.0f;
}

static dim3 grid_for(int M, int N) {
  return dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
}

void run_bias_gelu(const bf16 *A, const bf16 *B, const float *bias, float *C,
                   int M, int N, int K) {
  bias_gelu<<<grid_for(M, N), dim3(TILE, TILE)>>>(A, B, bias, C, M, N, K);
}
void run_tanh_gelu(const bf16 *A, const bf16 *B, float *C, int M, int N, int K,
                   float alpha) {
  tanh_gelu<<<grid_for(M, N), dim3(TILE, TILE)>>>(A, B, C, M, N, K, alpha);
}
void run_bias_silu(const bf16 *A, const bf16 *B, const float *bias, float *C,
                   int M, int N, int K) {
  bias_silu<<<grid_for(M, N), dim3(TILE, TILE)>>>(A, B, bias, C, M, N, K);
}
void run_relu_ternary(const bf16 *A, const bf16 *B, float *C, int M, int N,
                      int K) {
  relu_ternary<<<grid_for(M, N), dim3(TILE, TILE)>>>(A, B, C, M, N, K);
}
