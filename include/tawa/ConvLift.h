//===- tawa/ConvLift.h - lifting a hand-written implicit-GEMM convolution -===//
//
// Recognises the shared-memory tiled convolution over NHWC activations
// written as an implicit GEMM, whose K loop walks the filter taps and
// channels flattened (k = (r * S + s) * C + c, or channels outermost, k =
// (c * R + r) * S + s, for weights K x C x R x S) or as loops over the taps
// and a channel tile (`for r, for s, for (c0 < C; c0 += TILE)`, or one loop
// over the R * S taps), and proves what it computes:
//
//   __global__ void conv(const T *in, const T *w, T2 *out, int N, int H,
//                        int W, int C, int K) {
//     __shared__ T As[TILE][TILE], Bs[TILE][TILE];
//     int m = blockIdx.y * TILE + threadIdx.y;          // an output pixel
//     int n = m / (H * W), oh = (m / W) % H, ow = m % W;
//     float acc = 0;
//   #pragma tawa tile
//     for (int t = 0; t < 9 * C; t += TILE) {
//       int kk = t + threadIdx.x, c = kk % C, rs = kk / C;
//       int ih = oh + rs / 3 - 1, iw = ow + rs % 3 - 1;
//       As[ty][tx] = m < N * H * W && kk < 9 * C && ih >= 0 && ih < H &&
//                    iw >= 0 && iw < W ? in[((n * H + ih) * W + iw) * C + c]
//                                      : 0;
//       Bs[ty][tx] = kload < K && kk < 9 * C ? w[kload * 9 * C + kk] : 0;
//       __syncthreads();
//       for (int j = 0; j < TILE; ++j) acc += As[ty][j] * Bs[j][tx]; ...
//     }
//     if (m < N * H * W && col < K) out[m * K + col] = acc;
//   }
//
// The decodes of the output pixel and of the filter tap are quotients and
// remainders, kept as symbols in a canonical form (Affine.h, DivModAtom),
// so that the staging copy's address and bounds checks can be compared
// with those of the im2col matrix's element (tile.h, tawa::Im2col) of the
// thread's row and column: equal polynomials over those symbols, for every
// thread, block, iteration and parameter value. Padding, stride and
// dilation are read off the input row and column (ih = oh * stride - pad +
// r * dil), the output extents P and Q off the pixel decode, the channels C
// and the filter width S off the tap decode, R off the loop's bound. The
// product, the weights' staging copy, the store and its epilogue are proved
// as for the GEMM of Lift.h. What differs from the form is refused at the
// statement that breaks it.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_CONVLIFT_H
#define TAWA_CONVLIFT_H

#include "tawa/Lift.h"

namespace tawa {

/// Lifts the implicit-GEMM convolution `Loop` of `Kernel` (the form above),
/// or says which statement breaks the pattern. The result's A is the
/// activations, read through LiftedGemm::Conv; B the weights.
/// `Tf32`: the pragma has a precision clause, so fp32 tensors are lifted
/// rather than refused. `ReadHeader`, where given, says whether the K loop
/// read as loops over a convolution's taps and a channel tile, or all but
/// the activations' staging copy read as a convolution's (the failure then
/// concerns the convolution: a 1x1 convolution's pixel decode, say).
std::optional<LiftedGemm> liftConvGemm(const clang::FunctionDecl *Kernel,
                                       const clang::ForStmt *Loop,
                                       clang::ASTContext &Ctx, LiftFailure &Why,
                                       const NamedExtents *Named = nullptr,
                                       bool Tf32 = false,
                                       bool *ReadHeader = nullptr);

} // namespace tawa

#endif
