// Six hand-written SGEMMs annotated with `#pragma tawa tile
// precision(tf32)`, four in the styles of the SGEMM tutorials and one in
// that of the CUDA samples: the classic 32 x 32 shared-memory kernel (one
// element of C per thread), the two-dimensional register-blocked one (8 x 8
// per thread, alpha and beta), the vectorized register-blocked one (A
// staged transposed through a float4, C updated through one), the
// warptiling one (the same, structured into __device__ helpers, warps
// tiling the block's tile), one reading A and B through float4 pointers,
// and the samples' matrixMul (a kernel template
// over its block size whose K loop walks offsets into A and B).
// `tawa-rewrite --migrate` lifts all six into the tile vocabulary; tawa-rewrite then makes the tf32 kernels. They compute
// C = alpha * A * B + beta * C (classic and samples: alpha 1, beta 0) with A
// M x K, B K x N, C M x N, row-major fp32.
#include <cuda_runtime.h>

#define TILE 32

__global__ void classic_kernel(const float *A, const float *B, float *C,
                               int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile precision(tf32)
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

void classic_sgemm(const float *A, const float *B, float *C, int M, int N,
                   int K) {
  classic_kernel<<<dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE),
                   dim3(TILE, TILE)>>>(A, B, C, M, N, K);
}

#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define TN 8

// M and N multiples of 64, K of 8 (the kernel has no bounds checks).
__global__ void blocked_kernel(int M, int N, int K, float alpha,
                               const float *A, const float *B, float beta,
                               float *C) {
  const int cRow = blockIdx.y, cCol = blockIdx.x;
  const int numThreads = (BM * BN) / (TM * TN);
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const int innerRowA = threadIdx.x / BK, innerColA = threadIdx.x % BK;
  const int strideA = numThreads / BK;
  const int innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN;
  const int strideB = numThreads / BN;
  float threadResults[TM * TN] = {0.0f};
  float regM[TM] = {0.0f};
  float regN[TN] = {0.0f};
#pragma tawa tile precision(tf32)
  for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
    for (int loadOffset = 0; loadOffset < BM; loadOffset += strideA)
      As[(innerRowA + loadOffset) * BK + innerColA] =
          A[(innerRowA + loadOffset) * K + innerColA];
    for (int loadOffset = 0; loadOffset < BK; loadOffset += strideB)
      Bs[(innerRowB + loadOffset) * BN + innerColB] =
          B[(innerRowB + loadOffset) * N + innerColB];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      for (int i = 0; i < TM; ++i)
        regM[i] = As[(threadRow * TM + i) * BK + dotIdx];
      for (int i = 0; i < TN; ++i)
        regN[i] = Bs[dotIdx * BN + threadCol * TN + i];
      for (int resIdxM = 0; resIdxM < TM; ++resIdxM)
        for (int resIdxN = 0; resIdxN < TN; ++resIdxN)
          threadResults[resIdxM * TN + resIdxN] +=
              regM[resIdxM] * regN[resIdxN];
    }
    __syncthreads();
  }
  for (int resIdxM = 0; resIdxM < TM; ++resIdxM)
    for (int resIdxN = 0; resIdxN < TN; ++resIdxN)
      C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN] =
          alpha * threadResults[resIdxM * TN + resIdxN] +
          beta * C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN];
}

void blocked_sgemm(const float *A, const float *B, float *C, int M, int N,
                   int K, float alpha, float beta) {
  blocked_kernel<<<dim3(N / BN, M / BM), (BM * BN) / (TM * TN)>>>(
      M, N, K, alpha, A, B, beta, C);
}

// The CUDA samples' matrixMul: M, N and K multiples of BLOCK_SIZE (no bounds
// checks); wA = K, wB = N.
template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float *C, float *A, float *B, int wA, int wB) {
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by;
  int aEnd = aBegin + wA - 1;
  int aStep = BLOCK_SIZE;
  int bBegin = BLOCK_SIZE * bx;
  int bStep = BLOCK_SIZE * wB;
  float Csub = 0;
#pragma tawa tile precision(tf32)
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k)
      Csub += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = Csub;
}

void samples_sgemm(float *A, float *B, float *C, int M, int N, int K) {
  dim3 threads(32, 32);
  dim3 grid(N / threads.x, M / threads.y);
  MatrixMulCUDA<32><<<grid, threads>>>(C, A, B, K, N);
}

// The vectorized register-blocked kernel: M and N multiples of 128, K of 8
// (no bounds checks), 16-byte aligned rows. Its tile sizes are template
// parameters, not the macros above.
#undef BM
#undef BN
#undef BK
#undef TM
#undef TN
template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void sgemmVectorize(int M, int N, int K, float alpha, float *A,
                               float *B, float beta, float *C) {
  const unsigned cRow = blockIdx.y;
  const unsigned cCol = blockIdx.x;
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const unsigned innerRowA = threadIdx.x / (BK / 4);
  const unsigned innerColA = threadIdx.x % (BK / 4);
  const unsigned innerRowB = threadIdx.x / (BN / 4);
  const unsigned innerColB = threadIdx.x % (BN / 4);
  float threadResults[TM * TN] = {0.0};
  float regM[TM] = {0.0};
  float regN[TN] = {0.0};
#pragma tawa tile precision(tf32)
  for (unsigned bkIdx = 0; bkIdx < K; bkIdx += BK) {
    float4 tmp =
        reinterpret_cast<float4 *>(&A[innerRowA * K + innerColA * 4])[0];
    As[(innerColA * 4 + 0) * BM + innerRowA] = tmp.x;
    As[(innerColA * 4 + 1) * BM + innerRowA] = tmp.y;
    As[(innerColA * 4 + 2) * BM + innerRowA] = tmp.z;
    As[(innerColA * 4 + 3) * BM + innerRowA] = tmp.w;
    reinterpret_cast<float4 *>(&Bs[innerRowB * BN + innerColB * 4])[0] =
        reinterpret_cast<float4 *>(&B[innerRowB * N + innerColB * 4])[0];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (unsigned dotIdx = 0; dotIdx < BK; ++dotIdx) {
      for (unsigned i = 0; i < TM; ++i) {
        regM[i] = As[dotIdx * BM + threadRow * TM + i];
      }
      for (unsigned i = 0; i < TN; ++i) {
        regN[i] = Bs[dotIdx * BN + threadCol * TN + i];
      }
      for (unsigned resIdxM = 0; resIdxM < TM; ++resIdxM) {
        for (unsigned resIdxN = 0; resIdxN < TN; ++resIdxN) {
          threadResults[resIdxM * TN + resIdxN] +=
              regM[resIdxM] * regN[resIdxN];
        }
      }
    }
    __syncthreads();
  }
  for (unsigned resIdxM = 0; resIdxM < TM; resIdxM += 1) {
    for (unsigned resIdxN = 0; resIdxN < TN; resIdxN += 4) {
      float4 tmp = reinterpret_cast<float4 *>(
          &C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN])[0];
      tmp.x = alpha * threadResults[resIdxM * TN + resIdxN] + beta * tmp.x;
      tmp.y = alpha * threadResults[resIdxM * TN + resIdxN + 1] + beta * tmp.y;
      tmp.z = alpha * threadResults[resIdxM * TN + resIdxN + 2] + beta * tmp.z;
      tmp.w = alpha * threadResults[resIdxM * TN + resIdxN + 3] + beta * tmp.w;
      reinterpret_cast<float4 *>(
          &C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN])[0] =
          tmp;
    }
  }
}


void vectorized_sgemm(float *A, float *B, float *C, int M, int N, int K,
                      float alpha, float beta) {
  sgemmVectorize<128, 128, 8, 8, 8>
      <<<dim3(N / 128, M / 128), 256>>>(M, N, K, alpha, A, B, beta, C);
}

// The warptiling register-blocked kernel, structured into __device__ helpers
// as the SGEMM tutorials' fastest kernels are: one stages the tiles (A
// transposed through a float4), one runs the warp's product over them; each
// thread accumulates WMITER x WNITER sub-tiles of TM x TN, and C is updated
// through float4s. M and N multiples of 128, K of 16 (no bounds checks),
// 16-byte aligned rows.
constexpr int WARPSIZE = 32;

namespace wt {
// Stages a BM x BK tile of A (transposed, through a float4) and a BK x BN
// tile of B.
template <const int BM, const int BN, const int BK, const int rowStrideA,
          const int rowStrideB>
__device__ void loadFromGmem(int N, int K, const float *A, const float *B,
                             float *As, float *Bs, int innerRowA,
                             int innerColA, int innerRowB, int innerColB) {
  for (unsigned offset = 0; offset + rowStrideA <= BM; offset += rowStrideA) {
    const float4 tmp = reinterpret_cast<const float4 *>(
        &A[(innerRowA + offset) * K + innerColA * 4])[0];
    As[(innerColA * 4 + 0) * BM + innerRowA + offset] = tmp.x;
    As[(innerColA * 4 + 1) * BM + innerRowA + offset] = tmp.y;
    As[(innerColA * 4 + 2) * BM + innerRowA + offset] = tmp.z;
    As[(innerColA * 4 + 3) * BM + innerRowA + offset] = tmp.w;
  }
  for (unsigned offset = 0; offset + rowStrideB <= BK; offset += rowStrideB) {
    reinterpret_cast<float4 *>(
        &Bs[(innerRowB + offset) * BN + innerColB * 4])[0] =
        reinterpret_cast<const float4 *>(
            &B[(innerRowB + offset) * N + innerColB * 4])[0];
  }
}

// The warp's product over the staged tiles, WMITER x WNITER sub-tiles of
// TM x TN per thread.
template <const int BM, const int BN, const int BK, const int WM,
          const int WN, const int WMITER, const int WNITER, const int WSUBM,
          const int WSUBN, const int TM, const int TN>
__device__ void processFromSmem(float *regM, float *regN,
                                float *threadResults, const float *As,
                                const float *Bs, const unsigned warpRow,
                                const unsigned warpCol,
                                const unsigned threadRowInWarp,
                                const unsigned threadColInWarp) {
  for (unsigned dotIdx = 0; dotIdx < BK; ++dotIdx) {
    for (unsigned wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx)
      for (unsigned i = 0; i < TM; ++i)
        regM[wSubRowIdx * TM + i] =
            As[(dotIdx * BM) + warpRow * WM + wSubRowIdx * WSUBM +
               threadRowInWarp * TM + i];
    for (unsigned wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx)
      for (unsigned i = 0; i < TN; ++i)
        regN[wSubColIdx * TN + i] =
            Bs[(dotIdx * BN) + warpCol * WN + wSubColIdx * WSUBN +
               threadColInWarp * TN + i];
    for (unsigned wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx)
      for (unsigned wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx)
        for (unsigned resIdxM = 0; resIdxM < TM; ++resIdxM)
          for (unsigned resIdxN = 0; resIdxN < TN; ++resIdxN)
            threadResults[(wSubRowIdx * TM + resIdxM) * (WNITER * TN) +
                          (wSubColIdx * TN) + resIdxN] +=
                regM[wSubRowIdx * TM + resIdxM] *
                regN[wSubColIdx * TN + resIdxN];
  }
}
} // namespace wt

template <const int BM, const int BN, const int BK, const int WM,
          const int WN, const int WNITER, const int TM, const int TN,
          const int NUM_THREADS>
__global__ void __launch_bounds__(NUM_THREADS)
    sgemmWarptiling(int M, int N, int K, float alpha, float *A, float *B,
                    float beta, float *C) {
  const unsigned cRow = blockIdx.y;
  const unsigned cCol = blockIdx.x;
  const unsigned warpIdx = threadIdx.x / WARPSIZE;
  const unsigned warpCol = warpIdx % (BN / WN);
  const unsigned warpRow = warpIdx / (BN / WN);
  constexpr unsigned WMITER = (WM * WN) / (WARPSIZE * TM * TN * WNITER);
  constexpr unsigned WSUBM = WM / WMITER;
  constexpr unsigned WSUBN = WN / WNITER;
  const unsigned threadIdxInWarp = threadIdx.x % WARPSIZE;
  const unsigned threadColInWarp = threadIdxInWarp % (WSUBN / TN);
  const unsigned threadRowInWarp = threadIdxInWarp / (WSUBN / TN);
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  A += cRow * BM * K;
  B += cCol * BN;
  C += (cRow * BM + warpRow * WM) * N + cCol * BN + warpCol * WN;
  const unsigned innerRowA = threadIdx.x / (BK / 4);
  const unsigned innerColA = threadIdx.x % (BK / 4);
  constexpr unsigned rowStrideA = (NUM_THREADS * 4) / BK;
  const unsigned innerRowB = threadIdx.x / (BN / 4);
  const unsigned innerColB = threadIdx.x % (BN / 4);
  constexpr unsigned rowStrideB = NUM_THREADS / (BN / 4);
  float threadResults[WMITER * TM * WNITER * TN] = {0.0};
  float regM[WMITER * TM] = {0.0};
  float regN[WNITER * TN] = {0.0};
#pragma tawa tile precision(tf32)
  for (unsigned bkIdx = 0; bkIdx < K; bkIdx += BK) {
    wt::loadFromGmem<BM, BN, BK, rowStrideA, rowStrideB>(
        N, K, A, B, As, Bs, innerRowA, innerColA, innerRowB, innerColB);
    __syncthreads();
    wt::processFromSmem<BM, BN, BK, WM, WN, WMITER, WNITER, WSUBM, WSUBN, TM,
                        TN>(regM, regN, threadResults, As, Bs, warpRow,
                            warpCol, threadRowInWarp, threadColInWarp);
    A += BK;
    B += BK * N;
    __syncthreads();
  }
  for (unsigned wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx) {
    for (unsigned wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx) {
      float *C_interim = C + (wSubRowIdx * WSUBM) * N + wSubColIdx * WSUBN;
      for (unsigned resIdxM = 0; resIdxM < TM; resIdxM += 1) {
        for (unsigned resIdxN = 0; resIdxN < TN; resIdxN += 4) {
          float4 tmp = reinterpret_cast<float4 *>(
              &C_interim[(threadRowInWarp * TM + resIdxM) * N +
                         threadColInWarp * TN + resIdxN])[0];
          const int i = (wSubRowIdx * TM + resIdxM) * (WNITER * TN) +
                        wSubColIdx * TN + resIdxN;
          tmp.x = alpha * threadResults[i + 0] + beta * tmp.x;
          tmp.y = alpha * threadResults[i + 1] + beta * tmp.y;
          tmp.z = alpha * threadResults[i + 2] + beta * tmp.z;
          tmp.w = alpha * threadResults[i + 3] + beta * tmp.w;
          reinterpret_cast<float4 *>(
              &C_interim[(threadRowInWarp * TM + resIdxM) * N +
                         threadColInWarp * TN + resIdxN])[0] = tmp;
        }
      }
    }
  }
}

void warptiling_sgemm(float *A, float *B, float *C, int M, int N, int K,
                      float alpha, float beta) {
  sgemmWarptiling<128, 128, 16, 64, 64, 4, 8, 4, 128>
      <<<dim3(N / 128, M / 128), 128>>>(M, N, K, alpha, A, B, beta, C);
}

// A register-blocked kernel reading A and B through `const float4 *` row
// pointers, indexed directly and advanced by whole float4s, C updated
// through float4s. M and N multiples of 64, K of 8 (no bounds checks),
// 16-byte aligned rows.
template <int BM, int BN, int BK, int TM, int TN>
__global__ void sgemm_rows4(int M, int N, int K, float alpha, const float *A,
                            const float *B, float beta, float *C) {
  __shared__ float As[BK * BM];
  __shared__ float Bs[BK * BN];
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  const int innerRowA = threadIdx.x / (BK / 4), innerColA = threadIdx.x % (BK / 4);
  const int innerRowB = threadIdx.x / (BN / 4), innerColB = threadIdx.x % (BN / 4);
  const float4 *A4 =
      reinterpret_cast<const float4 *>(A + (blockIdx.y * BM + innerRowA) * K);
  const float4 *B4 =
      reinterpret_cast<const float4 *>(B + innerRowB * N + blockIdx.x * BN);
  C += (blockIdx.y * BM + threadRow * TM) * N + blockIdx.x * BN + threadCol * TN;
  float acc[TM * TN] = {0.0f};
#pragma tawa tile precision(tf32)
  for (int t = 0; t < K; t += BK) {
    for (int r = 0; r < BM; r += BM / 2) {
      const float4 a = A4[r * K / 4 + innerColA];
      As[(innerColA * 4 + 0) * BM + innerRowA + r] = a.x;
      As[(innerColA * 4 + 1) * BM + innerRowA + r] = a.y;
      As[(innerColA * 4 + 2) * BM + innerRowA + r] = a.z;
      As[(innerColA * 4 + 3) * BM + innerRowA + r] = a.w;
    }
    for (int r = 0; r < BK; r += BK / 2)
      reinterpret_cast<float4 *>(Bs)[(innerRowB + r) * (BN / 4) + innerColB] =
          B4[r * N / 4 + innerColB];
    __syncthreads();
    A4 += BK / 4;
    B4 += BK * N / 4;
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i * TN + j] += As[k * BM + threadRow * TM + i] * Bs[k * BN + threadCol * TN + j];
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN / 4; ++j) {
      float4 c = reinterpret_cast<float4 *>(&C[i * N])[j];
      c.x = alpha * acc[i * TN + j * 4 + 0] + beta * c.x;
      c.y = alpha * acc[i * TN + j * 4 + 1] + beta * c.y;
      c.z = alpha * acc[i * TN + j * 4 + 2] + beta * c.z;
      c.w = alpha * acc[i * TN + j * 4 + 3] + beta * c.w;
      reinterpret_cast<float4 *>(&C[i * N])[j] = c;
    }
}
void rows4_sgemm(float *A, float *B, float *C, int M, int N, int K,
                 float alpha, float beta) {
  sgemm_rows4<64, 64, 8, 8, 8>
      <<<dim3(N / 64, M / 64), 64>>>(M, N, K, alpha, A, B, beta, C);
}
