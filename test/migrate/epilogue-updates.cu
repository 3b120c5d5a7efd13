// Updates of the accumulator after the loop, before the store ('acc +=
// bias[col];', 'acc *= alpha;', 'acc = x;'): each use of the accumulator
// reads it as the updates before its statement left it, so the store's
// reads the last, and a local declared before an update reads the value
// before it. An activation helper may declare float locals before its
// 'return' (llm.c's GELU, `float cube = 0.044715f * x * x * x;`).
// Refused: an update under a condition, an update of another type, one that
// writes memory (atomicAdd), and a value the store's forms do not take. (The outputs are checked without
// this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --implicit-check-not=error:
#include <cuda_bf16.h>
#include <math.h>

#define TILE 16
using bf16 = __nv_bfloat16;
#define BODY                                                                   \
  __shared__ bf16 As[TILE][TILE];                                              \
  __shared__ bf16 Bs[TILE][TILE];                                              \
  int tx = threadIdx.x, ty = threadIdx.y;                                      \
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;              \
  float acc = 0.0f;
#define LOOP                                                                   \
  for (int t = 0; t < K; t += TILE) {                                          \
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();         \
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();       \
    __syncthreads();                                                           \
    for (int k = 0; k < TILE; ++k)                                             \
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);        \
    __syncthreads();                                                           \
  }

#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)
__device__ inline float gelu_forward(float x) {
  float cube = 0.044715f * x * x * x;
  return 0.5f * x * (1.0f + tanhf(GELU_SCALING_FACTOR * (x + cube)));
}

// llm.c's linear layer with its GELU: the bias added to the accumulator.
// CHECK-LABEL: /// 'bias_gelu' in the tile vocabulary: C = gelu_tanh(A * B + a bias per
// CHECK:      tawa::store(C, m0, n0,
// CHECK-NEXT:             tawa::gelu_tanh(acc + tawa::load<1, 256>(bias, 0, n0)));
__global__ void bias_gelu(const bf16 *A, const bf16 *B, const bf16 *bias,
                          bf16 *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    acc += __bfloat162float(bias[col]);
    C[row * N + col] = __float2bfloat16_rn(gelu_forward(acc));
  }
}

// Updates outside the bounds check, one after the other.
// CHECK-LABEL: /// 'scaled' in the tile vocabulary: C = alpha * A * B + a bias per row
// CHECK:      tawa::store(C, m0, n0, alpha * acc + tawa::load<128, 1>(bias, m0, 0));
__global__ void scaled(const bf16 *A, const bf16 *B, const float *bias,
                       float *C, int M, int N, int K, float alpha) {
  BODY
#pragma tawa tile
  LOOP
  acc *= alpha;
  acc = acc + bias[row];
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// A local declared before an update reads the accumulator before it: the
// bias is added to the accumulator, but the local is stored.
// CHECK-LABEL: /// 'before_update' in the tile vocabulary: C = A * B over the window
// CHECK:      tawa::store(C, m0, n0, acc);
__global__ void before_update(const bf16 *A, const bf16 *B, const float *bias,
                              float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  float v = acc;
  acc += bias[col];
  if (row < M && col < N)
    C[row * N + col] = v;
}

// DIAG: epilogue-updates.cu:[[@LINE+5]]:3: warning: this loop {{.*}} the statement at line [[@LINE+6]] breaks it: expected one store after the loop
__global__ void conditional(const bf16 *A, const bf16 *B, const float *bias,
                            float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (bias)
    acc += bias[col];
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// A double update: computed in double, then rounded to float.
// DIAG: epilogue-updates.cu:[[@LINE+5]]:3: warning: this loop {{.*}} the statement at line [[@LINE+6]] breaks it: expected one store after the loop
__global__ void in_double(const bf16 *A, const bf16 *B, const double *bias,
                          float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  acc += bias[col];
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// The value the store's forms do not take: twice the bias.
// DIAG: epilogue-updates.cu:[[@LINE+5]]:3: warning: this loop {{.*}} the statement at line [[@LINE+6]] breaks it: expected the stored value
__global__ void twice(const bf16 *A, const bf16 *B, const float *bias,
                      float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  acc += 2.0f * bias[col];
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// A sum on the right of the store's '+' is the left fold it rounds as:
// beta * C + (acc + bias) is (acc + bias) + beta * C.
// CHECK-LABEL: /// 'right_sum' in the tile vocabulary
// CHECK:      tawa::store(C, m0, n0,
// CHECK-NEXT:             acc + tawa::load<1, 256>(bias, 0, n0) +
// CHECK-NEXT:                 beta * tawa::load<128, 256>(C, m0, n0));
__global__ void right_sum(const bf16 *A, const bf16 *B, const float *bias,
                          float *C, int M, int N, int K, float beta) {
  BODY
#pragma tawa tile
  LOOP
  acc += bias[col];
  if (row < M && col < N)
    C[row * N + col] = beta * C[row * N + col] + acc;
}

// An update whose value is never stored, but which writes memory: the
// tiled form would drop the write.
// DIAG: epilogue-updates.cu:[[@LINE+5]]:3: warning: this loop {{.*}} the statement at line [[@LINE+7]] breaks it: expected one store after the loop
__global__ void dead_atomic(const bf16 *A, const bf16 *B, float *counter,
                            float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  float v = acc;
  acc += atomicAdd(&counter[0], 1.0f);
  if (row < M && col < N)
    C[row * N + col] = v;
}

// The refused kernels stay as written, their pragmas refused again.
// DIAG2-COUNT-4: warning: this loop does not match a liftable pattern

void launch(const bf16 *A, const bf16 *B, const bf16 *bb, const float *bf,
            const double *bd, bf16 *C, float *Cf, int M, int N, int K) {
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE), block(TILE, TILE);
  bias_gelu<<<grid, block>>>(A, B, bb, C, M, N, K);
  scaled<<<grid, block>>>(A, B, bf, Cf, M, N, K, 2.0f);
  before_update<<<grid, block>>>(A, B, bf, Cf, M, N, K);
  conditional<<<grid, block>>>(A, B, bf, Cf, M, N, K);
  in_double<<<grid, block>>>(A, B, bd, Cf, M, N, K);
  twice<<<grid, block>>>(A, B, bf, Cf, M, N, K);
  right_sum<<<grid, block>>>(A, B, bf, Cf, M, N, K, 0.5f);
  dead_atomic<<<grid, block>>>(A, B, Cf, Cf, M, N, K);
}
