// 16-bit pairs that do not store each value into its own element of C
// are refused, and the file is left as it is.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4

// The two values swapped.
// CHECK: pair-stores-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}does not gain
__global__ void swapped(int M, int N, int K, float alpha, const __half *A,
                           const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int c = (row0 + tRow * TM + i) * N + col0 + tCol * TN + j;
      *reinterpret_cast<__half2 *>(&C[c]) =
          __floats2half2_rn(alpha * acc[i][j + 1], alpha * acc[i][j]);
    }
}


// Pairs of halves written over a float C.
// CHECK: pair-stores-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}expected a pair made of two stored values
__global__ void float_out(int M, int N, int K, float alpha, const __half *A,
                           const __half *B, float *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int c = (row0 + tRow * TM + i) * N + col0 + tCol * TN + j;
      *reinterpret_cast<__half2 *>(&C[c]) =
          __floats2half2_rn(alpha * acc[i][j], alpha * acc[i][j + 1]);
    }
}


// bf16 pairs written over a half C.
// CHECK: pair-stores-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}expected a pair made of two stored values
__global__ void bf16_into_half(int M, int N, int K, float alpha, const __half *A,
                           const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int c = (row0 + tRow * TM + i) * N + col0 + tCol * TN + j;
      *reinterpret_cast<__nv_bfloat162 *>(&C[c]) =
          __floats2bfloat162_rn(alpha * acc[i][j], alpha * acc[i][j + 1]);
    }
}


// Pairs one element apart: each overwrites the last one's second value.
// CHECK: pair-stores-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}two stores write the same element of C
__global__ void pairs_overlap(int M, int N, int K, float alpha, const __half *A,
                           const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int c = (row0 + tRow * TM + i) * N + col0 + tCol * TN + j / 2;
      *reinterpret_cast<__half2 *>(&C[c]) =
          __floats2half2_rn(alpha * acc[i][j], alpha * acc[i][j + 1]);
    }
}

// The check of the column after the pair.
// CHECK: pair-stores-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}the store must write C[row * ldc + col]
__global__ void checked_past_pair(int M, int N, int K, const __half *A,
                              const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256) {
      const int r = row0 + i / BK, c = k0 + i % BK;
      As[i / BK][i % BK] = r < M && c < K ? A[r * K + c] : __float2half_rn(0.0f);
    }
    for (int i = threadIdx.x; i < BK * BN; i += 256) {
      const int r = k0 + i / BN, c = col0 + i % BN;
      Bs[i / BN][i % BN] = r < K && c < N ? B[r * N + c] : __float2half_rn(0.0f);
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      if (r < M && c + 2 < N)
        *reinterpret_cast<__half2 *>(&C[r * N + c]) =
            __floats2half2_rn(acc[i][j], acc[i][j + 1]);
    }
}

// A vector loaded from C with two members set: storing it back puts the
// old values of the other two back over the stores made since the load.
// CHECK: pair-stores-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}the vector 'v' is stored into C with members that were never set
__global__ void loaded_partly_set(int M, int N, int K, float alpha, float beta, const __half *A,
                              const __half *B, float *C ) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256) {
      const int r = row0 + i / BK, c = k0 + i % BK;
      As[i / BK][i % BK] = A[r * K + c];
    }
    for (int i = threadIdx.x; i < BK * BN; i += 256) {
      const int r = k0 + i / BN, c = col0 + i % BN;
      Bs[i / BN][i % BN] = B[r * N + c];
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN;
      float *p = &C[r * N + c];
      float4 v = *reinterpret_cast<float4 *>(p);
      p[2] = acc[i][2]; p[3] = acc[i][3];
      v.x = acc[i][0]; v.y = acc[i][1];
      *reinterpret_cast<float4 *>(p) = v;
    }
}

// A vector loaded from C stored back after a store of the results: C is
// left as it was.
// CHECK: pair-stores-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}the vector 'v' is stored into C with members that were never set
__global__ void loaded_restored(int M, int N, int K, float alpha, float beta, const __half *A,
                              const __half *B, float *C ) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256) {
      const int r = row0 + i / BK, c = k0 + i % BK;
      As[i / BK][i % BK] = A[r * K + c];
    }
    for (int i = threadIdx.x; i < BK * BN; i += 256) {
      const int r = k0 + i / BN, c = col0 + i % BN;
      Bs[i / BN][i % BN] = B[r * N + c];
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN;
      float *p = &C[r * N + c];
      float4 v = *reinterpret_cast<float4 *>(p);
      *reinterpret_cast<float4 *>(p) =
          make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
      *reinterpret_cast<float4 *>(p) = v;
    }
}

// A local pair stored under a bounds check right after it is made, with an
// else: the store must stand alone under the check.
// CHECK: pair-stores-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}expected the members of the vector 'h' set one by one, each once, and the vector stored into consecutive elements of C of its member type right after, in the same block{{.*}} [tawa-unsupported]
__global__ void pair_local_else(int M, int N, int K, const __half *A,
                                const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      const __half2 h = __floats2half2_rn(acc[i][j], acc[i][j + 1]);
      if (r < M && c < N)
        *reinterpret_cast<__half2 *>(&C[r * N + c]) = h;
      else
        C[0] = __float2half_rn(0.0f);
    }
}

// A local pair stored under a bounds check right after it is made, with
// another statement under the check.
// CHECK: pair-stores-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}expected the members of the vector 'h' set one by one, each once, and the vector stored into consecutive elements of C of its member type right after, in the same block{{.*}} [tawa-unsupported]
__global__ void pair_local_two(int M, int N, int K, const __half *A,
                               const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      const __half2 h = __floats2half2_rn(acc[i][j], acc[i][j + 1]);
      if (r < M && c < N) {
        C[r * N + c] = __float2half_rn(0.0f);
        *reinterpret_cast<__half2 *>(&C[r * N + c]) = h;
      }
    }
}

// A local pair stored under a check of a column outside it: the last
// column pair of a row would be stored where the check does not hold.
// CHECK: pair-stores-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}the store must write C[row * ldc + col]{{.*}} [tawa-unsupported]
__global__ void pair_local_wrong_column(int M, int N, int K, const __half *A,
                                        const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      const __half2 h = __floats2half2_rn(acc[i][j], acc[i][j + 1]);
      if (r < M && c + 2 < N)
        *reinterpret_cast<__half2 *>(&C[r * N + c]) = h;
    }
}

// A local pair with one member set: the other would store what the pair
// held before, nothing the kernel computed.
// CHECK: pair-stores-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}the vector 'h' is stored into C with members that were never set{{.*}} [tawa-unsupported]
__global__ void pair_half_set(int M, int N, int K, const __half *A,
                              const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      __half2 h;
      h.x = __float2half_rn(acc[i][j]);
      *reinterpret_cast<__half2 *>(
          &C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j]) = h;
    }
}

// A pair's index that halves an odd element index: the pair would land one
// element before the values' own, and the quotient is no polynomial.
// CHECK: pair-stores-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}the pair's index is not a polynomial{{.*}} [tawa-unsupported]
__global__ void pair_halved_odd(int M, int N, int K, const __half *A,
                                const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      reinterpret_cast<__half2 *>(C)[(r * N + c + 1) / 2] =
          __floats2half2_rn(acc[i][j], acc[i][j + 1]);
    }
}

void launch(const __half *A, const __half *B, __half *C, float *F, int M,
            int N, int K) {
  dim3 grid(N / BN, M / BM);
  swapped<<<grid, 256>>>(M, N, K, 1.5f, A, B, C);
  float_out<<<grid, 256>>>(M, N, K, 1.5f, A, B, F);
  bf16_into_half<<<grid, 256>>>(M, N, K, 1.5f, A, B, C);
  pairs_overlap<<<grid, 256>>>(M, N, K, 1.5f, A, B, C);
  checked_past_pair<<<grid, 256>>>(M, N, K, A, B, C);
  loaded_partly_set<<<grid, 256>>>(M, N, K, 1.5f, 0.5f, A, B, F);
  loaded_restored<<<grid, 256>>>(M, N, K, 1.5f, 0.5f, A, B, F);
  pair_local_else<<<grid, 256>>>(M, N, K, A, B, C);
  pair_local_two<<<grid, 256>>>(M, N, K, A, B, C);
  pair_local_wrong_column<<<grid, 256>>>(M, N, K, A, B, C);
  pair_halved_odd<<<grid, 256>>>(M, N, K, A, B, C);
  pair_half_set<<<grid, 256>>>(M, N, K, A, B, C);
}
