//===- tawa/WmmaLift.h - lifting a hand-written nvcuda::wmma GEMM loop ----===//
//
// Recognises the WMMA GEMM of the CUDA samples and tutorials under
// `#pragma tawa tile`, one accumulator fragment per warp:
//
//   int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
//   int warpN = blockIdx.y * blockDim.y + threadIdx.y;
//   wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
//   wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
//   wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
//   wmma::fill_fragment(acc, 0.0f);
// #pragma tawa tile
//   for (int k = 0; k < K; k += 16) {
//     if (warpM * 16 < M && warpN * 16 < N) {          // optional
//       wmma::load_matrix_sync(a, A + warpM * 16 * lda + k, lda);
//       wmma::load_matrix_sync(b, B + k * ldb + warpN * 16, ldb);
//       wmma::mma_sync(acc, a, b, acc);
//     }
//   }
//   if (warpM * 16 < M && warpN * 16 < N)
//     wmma::store_matrix_sync(C + warpM * 16 * ldc + warpN * 16, acc, ldc,
//                             wmma::mem_row_major);
//
// Fragments of m16n16k16, m32n8k16 or m8n32k16, half or __nv_bfloat16
// inputs of either layout, a float accumulator stored row-major to float C.
// Indices are polynomials with warp coordinates (Affine.h: threadIdx.x =
// 32 * warp + lane, for blocks a multiple of 32 threads across); `/ 32`,
// `/ warpSize` and `% 32` of them are exact. What is proved: each warp
// stores the FM x FN tile of C at (FM * r, FN * c), r and c each one grid
// coordinate (blockIdx.x * warps across + warp, blockIdx.y * blockDim.y +
// threadIdx.y, or a blockIdx alone), the sum over k < K of the tiles of A
// and B at the same rows, columns and k. The launcher runs the tiled form
// where M, N and K are multiples of the fragment's (where the kernel as
// written reads and writes whole fragments inside the matrices).
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_WMMALIFT_H
#define TAWA_WMMALIFT_H

#include "tawa/Lift.h"

namespace tawa {

/// Lifts the WMMA loop `Loop` in `Kernel`, or says which statement breaks
/// the pattern.
std::optional<LiftedGemm> liftWmmaGemm(const clang::FunctionDecl *Kernel,
                                       const clang::ForStmt *Loop,
                                       clang::ASTContext &Ctx, LiftFailure &Why,
                                       const NamedExtents *Named = nullptr);

/// Whether `Kernel` declares an array of wmma fragments or a __shared__
/// variable: a WMMA GEMM outside the one-fragment form above, which the
/// register-blocked front end (BlockedLift.h) follows instead, so that its
/// refusal is the one to report.
bool wmmaBeyondOneFragment(const clang::FunctionDecl *Kernel);

} // namespace tawa

#endif
