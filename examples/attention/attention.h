//===- examples/attention/attention.h - attention forward, one variant ----===//
//
// O = softmax(Q K^T * scale) V for every (batch, head), FlashAttention's
// forward pass: Q, K, V and O are [batch * heads][seqlen][head_dim], row-major
// and contiguous (PyTorch's (B, H, S, D) layout), 16-bit; products are
// accumulated in float. LSE is [batch * heads][seqlen_q] float, the natural
// log of each row's sum of exp(scaled scores) (the statistic the backward
// pass needs). attention.cu holds the kernel as written (the reference);
// tawa-rewrite turns it into a warp-specialized sm_90a kernel behind the
// same function.
//
// One variant per set of compile flags (the rewriter reads the same flags):
//   -DTAWA_ATTENTION_HEAD_DIM=64|128|256  head dimension (default 128)
//   -DTAWA_ATTENTION_F16                  fp16 (default bf16)
//   -DTAWA_ATTENTION_CAUSAL=1             query i attends keys 0..i only
//                                         (top-left aligned, as PyTorch's
//                                         is_causal)
//   -DTAWA_ATTENTION_BLOCK_N=N            keys per iteration (default:
//                                         FlashAttention-3's, below)
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cuda_runtime.h>
#include <tawa/tile.h>

#ifndef TAWA_ATTENTION_HEAD_DIM
#define TAWA_ATTENTION_HEAD_DIM 128
#endif
#ifndef TAWA_ATTENTION_CAUSAL
#define TAWA_ATTENTION_CAUSAL 0
#endif

namespace attention {

#ifdef TAWA_ATTENTION_F16
using Element = __half;
#else
using Element = __nv_bfloat16;
#endif

constexpr int kHeadDim = TAWA_ATTENTION_HEAD_DIM;
static_assert(kHeadDim == 64 || kHeadDim == 128 || kHeadDim == 256,
              "TAWA_ATTENTION_HEAD_DIM: 64, 128 or 256");
/// Queries per tile (rows of Q and O) and keys per iteration (rows of K and
/// V): FlashAttention-3's tiles for each head dimension (arXiv 2407.08608).
constexpr int kBlockM = kHeadDim == 64 ? 192 : 128;
#ifdef TAWA_ATTENTION_BLOCK_N
constexpr int kBlockN = TAWA_ATTENTION_BLOCK_N;
#else
constexpr int kBlockN = kHeadDim == 256 ? 80 : 128;
#endif
constexpr bool kCausal = TAWA_ATTENTION_CAUSAL != 0;

/// log2(e) and ln(2), to work in base 2.
constexpr float kLog2e = 1.4426950408889634f;
constexpr float kLn2 = 0.6931471805599453f;

} // namespace attention

/// Enqueues the forward pass on `stream` (a cudaStream_t). Pointers are device
/// pointers in the layouts above, 16-bit elements of the variant's type;
/// `softmax_scale` multiplies the scores (1/sqrt(head_dim) usually). Returns
/// a cudaError_t: cudaErrorInvalidValue for negative sizes, otherwise the
/// launch's error; the work completes asynchronously.
extern "C" int tawa_attention_forward(const void *q, const void *k,
                                      const void *v, void *o, float *lse,
                                      int batch_heads, int seqlen_q,
                                      int seqlen_k, float softmax_scale,
                                      void *stream);

/// The variant compiled: head dimension, 1 for bf16 (0 for fp16), 1 for
/// causal.
extern "C" void tawa_attention_variant(int *head_dim, int *bf16, int *causal);
