// The beta term added under a test of beta ('beta-updates.cu') in the
// register-blocked front end: 'float v = alpha * acc[i][j]; if (beta !=
// 0.0f) v += beta * C[i]; C[i] = v;', with C of float or of bf16
// (converted both ways). The value reads as the choice on beta that 'beta
// == 0 ? x : x + beta * C[i]' makes. Refused: the term added where beta is
// 0, a term that reads the local itself or another element of C, and a
// local changed after the update. (The outputs are checked without this
// file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --implicit-check-not=error:
#include <cuda_bf16.h>

using bf16 = __nv_bfloat16;
// 64 x 64 tiles, 16 x 16 threads, 4 x 4 per thread strided by 16.
#define BODY                                                                   \
  __shared__ bf16 As[16][64];                                                  \
  __shared__ bf16 Bs[16][64];                                                  \
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;            \
  const int rowBase = blockIdx.y * 64, colBase = blockIdx.x * 64;              \
  float acc[4][4] = {};
#define LOOP                                                                   \
  for (int k0 = 0; k0 < K; k0 += 16) {                                         \
    for (int e = tid; e < 1024; e += 256) {                                    \
      const int m = e / 16, kk = e % 16;                                       \
      As[kk][m] = rowBase + m < M && k0 + kk < K ? A[(rowBase + m) * K + k0 + kk] \
                                                 : bf16();                     \
      const int r = e / 64, n = e % 64;                                        \
      Bs[r][n] = k0 + r < K && colBase + n < N ? B[(k0 + r) * N + colBase + n] \
                                               : bf16();                       \
    }                                                                          \
    __syncthreads();                                                           \
    for (int kk = 0; kk < 16; ++kk)                                            \
      for (int i = 0; i < 4; ++i)                                              \
        for (int j = 0; j < 4; ++j)                                            \
          acc[i][j] += __bfloat162float(As[kk][ty + i * 16]) *                 \
                       __bfloat162float(Bs[kk][tx + j * 16]);                  \
    __syncthreads();                                                           \
  }
#define EACH                                                                   \
  for (int i = 0; i < 4; ++i)                                                  \
    for (int j = 0; j < 4; ++j)
#define AT                                                                     \
  const int r = rowBase + ty + i * 16, c = colBase + tx + j * 16;              \
  if (r < M && c < N)

// A float C.
// CHECK-LABEL: /// 'float_c' in the tile vocabulary: C = alpha * A * B + beta * C (C not
// CHECK:      tawa::store(C, m0, n0,
// CHECK-NEXT:             beta == 0.0f
// CHECK-NEXT:                 ? alpha * acc
// CHECK-NEXT:                 : alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
__global__ void float_c(const bf16 *A, const bf16 *B, float *C, int M, int N,
                        int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  EACH {
    AT {
      float v = alpha * acc[i][j];
      if (beta != 0.0f)
        v += beta * C[r * N + c];
      C[r * N + c] = v;
    }
  }
}

// A bf16 C, read and written through conversions.
// CHECK-LABEL: /// 'bf16_c' in the tile vocabulary: C = alpha * A * B + beta * C (C not
// CHECK:      tawa::store(C, m0, n0,
// CHECK-NEXT:             beta == 0.0f
// CHECK-NEXT:                 ? alpha * acc
// CHECK-NEXT:                 : alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
__global__ void bf16_c(const bf16 *A, const bf16 *B, bf16 *C, int M, int N,
                       int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  EACH {
    AT {
      float v = alpha * acc[i][j];
      if (beta != 0.0f)
        v += beta * __bfloat162float(C[r * N + c]);
      C[r * N + c] = __float2bfloat16_rn(v);
    }
  }
}

// The term added where beta IS 0.
// DIAG: blocked-beta-updates.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void inverted(const bf16 *A, const bf16 *B, float *C, int M, int N,
                         int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  EACH {
    AT {
      float v = alpha * acc[i][j];
      if (beta == 0.0f)
        v += beta * C[r * N + c];
      C[r * N + c] = v;
    }
  }
}

// The added term reads the local itself.
// DIAG: blocked-beta-updates.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void self_term(const bf16 *A, const bf16 *B, float *C, int M, int N,
                          int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  EACH {
    AT {
      float v = alpha * acc[i][j];
      if (beta != 0.0f)
        v += beta * v;
      C[r * N + c] = v;
    }
  }
}

// The term reads the element of C in the next column.
// DIAG: blocked-beta-updates.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void other_element(const bf16 *A, const bf16 *B, float *C, int M,
                              int N, int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  EACH {
    AT {
      float v = alpha * acc[i][j];
      if (beta != 0.0f)
        v += beta * C[r * N + c + 1];
      C[r * N + c] = v;
    }
  }
}

// The local changed again after the update on beta.
// DIAG: blocked-beta-updates.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void changed_again(const bf16 *A, const bf16 *B, float *C, int M,
                              int N, int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  EACH {
    AT {
      float v = alpha * acc[i][j];
      if (beta != 0.0f)
        v += beta * C[r * N + c];
      v *= 2.0f;
      C[r * N + c] = v;
    }
  }
}

// The refused kernels stay as written, their pragmas refused again.
// DIAG2-COUNT-4: warning: this loop does not match a liftable pattern
