//===- examples/legacy/legacy.h - hand-written GEMMs, as found in projects
//-===//
//
// Eleven shared-memory GEMMs (two of them register-blocked, one written for
// extents fixed at compile time) and three WMMA GEMMs in the style of CUDA
// tutorials, annotated with `#pragma tawa tile` on their K loop (legacy.cu).
// All matrices are row-major and dense; each shared-memory function launches
// its kernel with one block of TILE x TILE threads (flat_gemm: TILE * TILE in
// one dimension) per TILE x TILE tile of C; the register-blocked ones, one
// block per 128 x 128 (blocked_gemm, 256 threads) or 64 x 64 tile of C
// (blocked_checked_gemm, 16 x 16 threads).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

/// C = A * B: A M x K, B K x N, C M x N, bf16, fp32 accumulation.
void smem_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
               int M, int N, int K, cudaStream_t stream);

/// C = alpha * A * B^T + beta * C: A M x K, B N x K (fp16), C M x N fp32.
void smem_gemm_nt(const __half *A, const __half *B, float *C, int M, int N,
                  int K, float alpha, float beta, cudaStream_t stream);

/// P = M * N for square Width x Width matrices: M, N fp16, P fp32 (the
/// textbook kernel, 16 x 16 tiles).
void square_matmul(const __half *M, const __half *N, float *P, int Width,
                   cudaStream_t stream);

/// C = A * B for M, N, K multiples of 32 (the kernel has no bounds checks):
/// A M x K, B K x N (bf16), C M x N fp32.
void whole_tiles_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                      int M, int N, int K, cudaStream_t stream);

/// The same as whole_tiles_gemm, by a kernel template over its tile size
/// (instantiated for 32 x 32 tiles, a one-dimensional block).
void template_tile_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                        float *C, int M, int N, int K, cudaStream_t stream);

/// C[b] = A[b] * B[b] for b < batches: each operand `batches` packed
/// matrices (A M x K, B K x N, C M x N, bf16), fp32 accumulation.
void batched_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                  __nv_bfloat16 *C, int M, int N, int K, int batches,
                  cudaStream_t stream);

/// C = alpha * A * B + beta * C for M, N, K multiples of 32 (no bounds
/// checks), with one-dimensional blocks and pointers advanced in the loop:
/// A M x K, B K x N (bf16), C M x N fp32.
void flat_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
               int N, int K, float alpha, float beta, cudaStream_t stream);

/// C = max(A * B + bias, 0), bias[N] added to each row of C: A M x K, B
/// K x N, bias and C (M x N) bf16, fp32 accumulation.
void bias_relu_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                    const __nv_bfloat16 *bias, __nv_bfloat16 *C, int M, int N,
                    int K, cudaStream_t stream);

/// C = A * B through double-buffered shared memory: A M x K, B K x N
/// (fp16), C M x N fp32.
void double_buffered_gemm(const __half *A, const __half *B, float *C, int M,
                          int N, int K, cudaStream_t stream);

/// C = A * B with WMMA fragments (the CUDA samples' style) for M, N, K
/// multiples of 16: A M x K, B K x N (fp16), C M x N fp32.
void wmma_gemm(const __half *A, const __half *B, float *C, int M, int N, int K,
               cudaStream_t stream);

/// C = A * B with 8 x 8 register-blocked micro-tiles and 16-byte vector
/// staging, for M and N multiples of 128 and K a multiple of 32 (no bounds
/// checks): A M x K, B K x N, C M x N (bf16), fp32 accumulation.
void blocked_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                  __nv_bfloat16 *C, int M, int N, int K, cudaStream_t stream);

/// C = A * B with 4 x 4 register-blocked micro-tiles and bounds checks: A
/// M x K, B K x N (fp16), C M x N fp32.
void blocked_checked_gemm(const __half *A, const __half *B, float *C, int M,
                          int N, int K, cudaStream_t stream);

/// C = A * B with WMMA fragments staged through shared memory, 2 x 2
/// fragments per warp, for M and N multiples of 64 and K of 32: A M x K, B
/// K x N (fp16), C M x N fp32.
void wmma_smem_gemm(const __half *A, const __half *B, float *C, int M, int N,
                    int K, cudaStream_t stream);

/// The extents fixed_extents_gemm is written for: a project's compile-time
/// sizes, none a multiple of the tile.
#define FIXED_M 520
#define FIXED_N 1016
#define FIXED_K 392

/// C = A * B for the one shape FIXED_M x FIXED_N x FIXED_K, the extents
/// compile-time constants of the kernel: A M x K, B K x N (fp16), C M x N
/// fp32.
void fixed_extents_gemm(const __half *A, const __half *B, float *C,
                        cudaStream_t stream);

/// C = alpha * A * B + beta * C on column-major matrices (the CUDA samples'
/// simpleTensorCoreGEMM) for M, N, K multiples of 16: A M x K, B K x N
/// (fp16), C M x N fp32, each with its rows as its leading dimension.
void wmma_col_major_gemm(half *A, half *B, float *C, int M, int N, int K,
                         float alpha, float beta, cudaStream_t stream);
