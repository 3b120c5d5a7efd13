//===- tawa/BlockedLift.h - lifting a register-blocked GEMM loop ----------===//
//
// Recognises the register-blocked shared-memory GEMM of the SGEMM tutorials
// under `#pragma tawa tile`: each thread accumulates a micro-tile of C in a
// local array, the block stages BM x BK and BK x BN tiles with loops of
// copies (scalar or 16-byte vector), and the product loop reads the tiles,
// directly or through register caches:
//
//   __shared__ bf16 As[BM * BK], Bs[BK * BN];
//   const int threadRow = threadIdx.x / (BN / TN), threadCol = ... % ...;
//   float acc[TM * TN] = {0.0f}, regM[TM], regN[TN];
// #pragma tawa tile
//   for (int t = 0; t < K; t += BK) {
//     for (int r = 0; r < BM; r += STRIDE)
//       As[(innerRowA + r) * BK + innerColA] = A[...];
//     ...                                   // Bs likewise
//     __syncthreads();
//     for (int k = 0; k < BK; ++k) {
//       for (int i = 0; i < TM; ++i) regM[i] = As[(threadRow * TM + i) * BK +
//       k]; for (int j = 0; j < TN; ++j) regN[j] = Bs[k * BN + threadCol * TN +
//       j]; for (int i = 0; i < TM; ++i)
//         for (int j = 0; j < TN; ++j)
//           acc[i * TN + j] += float(regM[i]) * float(regN[j]);
//     }
//     __syncthreads();
//   }
//   for (int i = 0; i < TM; ++i)
//     for (int j = 0; j < TN; ++j)
//       C[(row0 + i) * N + col0 + j] = acc[i * TN + j];   // or alpha, beta,
//                                                         // bias, ReLU
//
// What is proved, by following the block's threads one by one through one
// iteration of the K loop (its counter a symbol, so the iteration stands
// for all of them), with every inner loop's bound a constant: each element
// a product reads was staged in that iteration, before the barrier, by
// exactly one copy; every element of the BM x BN window of C at
// (BM * blockIdx.y, BN * blockIdx.x) (or the block axes swapped) is stored
// once, from one accumulator that starts at 0 and gains, per iteration,
// the products A(row, t + k) * B(t + k, col) for each k < BK once. Bounds
// checks, where present, must be exactly the extents' (elements outside
// read 0, as TMA's zero fill does); without any, the launcher runs the
// tiled form only where K is a multiple of BK. The block is not written in
// the kernel: the largest of 1024, 512, ..., 32 threads (two-dimensional
// shapes where the kernel reads threadIdx.y) for which one thread's work
// stays inside its block's tiles is the one proved, and the launcher runs
// the tiled form only for it.
//
// nvcuda::wmma fragments are followed the same way: fragment arrays set to
// 0 before the loop, A and B fragments loaded from a matrix or a __shared__
// tile, mma_sync into an accumulator that carries its value, stores
// row-major after the loop. The calls are warp-collective: every lane of a
// warp must make the calls of its first lane, with the same pointers and
// fragments, and that lane's stores are proved element by element.
//
// Results may reach C through a static __shared__ float array the loop
// does not use: after the loop, `wmma::store_matrix_sync(Cs + offset, acc,
// ld, wmma::mem_row_major)` (or mem_col_major; unguarded, warp-collective)
// or `Cs[i][j] = acc[k];` puts accumulator elements; the barriers at the
// top level of the code after the loop, and at the top level of the bodies
// of its loops of constant bounds (unrolled, one iteration per fragment of
// a warp that reuses its scratch), split it into parts. A store of C may
// read an element whose last write is ordered before the read (an earlier
// part after `__syncthreads();`, or `__syncwarp();` for the warp that wrote
// it, or its own thread's element store) and whose later writes are
// ordered after it the same way. Such a read stands for the accumulator
// element, so C's stores are proved as above.
// Where the stores are bounds-checked and the loads are not (wmma loads
// cannot be), the launcher runs the tiled form only where M, N and K are
// multiples of the window and the K step, where the loads stay inside the
// matrices.
//
// Before any front end reads a kernel, LiftSupport.h's unliftableConstruct
// refuses what none of them follows (static storage, side effects in
// initializers, narrow integers, functions named like CUDA's).
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_BLOCKEDLIFT_H
#define TAWA_BLOCKEDLIFT_H

#include "tawa/Lift.h"

namespace tawa {

/// Lifts `Loop` in `Kernel`, a register-blocked shared-memory GEMM, or says
/// which statement breaks the pattern. `Tf32`: the pragma says
/// precision(tf32), so fp32 operands are lifted rather than refused.
std::optional<LiftedGemm>
liftBlockedGemm(const clang::FunctionDecl *Kernel, const clang::ForStmt *Loop,
                clang::ASTContext &Ctx, LiftFailure &Why,
                const NamedExtents *Named = nullptr, bool Tf32 = false);

/// Whether the body of `Loop` has a loop with a barrier at the top level of
/// its body whose variable indexes a local array there (thread coarsening,
/// BlockedLift.cpp's coarsenedSegments), or
/// casts the address of a __shared__ variable to another pointer type
/// (tiles read as vectors or pairs): forms only the front end above reads,
/// so that its refusal is the one to report.
bool blockedLoopBody(const clang::ForStmt *Loop);

/// Whether the body of `Loop` has a loop that writes a __shared__ array: a
/// staging copy walked by each thread over several elements (`for (int i =
/// tid; i < BM * BK; i += blockDim.x) As[i / BK][i % BK] = ...`), which the
/// front end above reads and the one-element-per-thread ones do not.
bool stagesInLoop(const clang::ForStmt *Loop);

/// Whether `Kernel` declares a static __shared__ array that `Loop` does not
/// use: results staged after the loop, which only the front end above
/// follows, so that its refusal is the one to report.
bool stagesResultsAfterLoop(const clang::FunctionDecl *Kernel,
                            const clang::ForStmt *Loop);

/// Whether `Loop` lies inside an `if` that is a statement of `Kernel`'s
/// body: the front end above alone reads such loops (BlockedLift.cpp,
/// loopGuard), so that its refusal is the one to report.
bool loopInsideIf(const clang::FunctionDecl *Kernel,
                  const clang::ForStmt *Loop);

} // namespace tawa

#endif
