#include "attention.h"
#include <tawa/tile.h>

using attention::Element;
using attention::kBlockM;
using attention::kBlockN;
using attention::kHeadDim;

// One (batch, head) and kBlockM queries per block: online softmax over the
// keys, kBlockN at a time, in base 2 (scale_log2 = softmax scale * log2 e).
__global__ void attention_fwd(tawa::Matrix<const Element> Q,
                              tawa::Matrix<const Element> K,
                              tawa::Matrix<const Element> V,
                              tawa::Matrix<Element> O, tawa::Matrix<float> LSE,
                              float scale_log2) {
  const int bh = blockIdx.y, m0 = blockIdx.x * kBlockM;
  auto q = tawa::load<kBlockM, kHeadDim>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, kBlockM, kHeadDim> o;
  tawa::RowVector<float, kBlockM> m_i(-INFINITY), l_i(0.0f);
#pragma tawa tile
  for (int n0 = 0; n0 < K.rows; n0 += kBlockN) {
    auto k = tawa::load<kBlockN, kHeadDim>(K.batch(bh), n0, 0);
    auto v = tawa::load<kBlockN, kHeadDim>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, kBlockM, kBlockN> s;
    tawa::mma(s, q, tawa::transpose(k));   // S = Q K^T
    tawa::mask(s, tawa::col(n0) < K.rows); // keys past the sequence
#if TAWA_ATTENTION_CAUSAL
    tawa::mask(s, tawa::col(n0) <= tawa::row(m0)); // keys after the query
#endif
    auto m_new = tawa::max(m_i, tawa::row_max(s) * scale_log2);
    auto p = tawa::exp2(s * scale_log2 - m_new);
    auto alpha = tawa::exp2(m_i - m_new);
    l_i = l_i * alpha + tawa::row_sum(p);
    o *= alpha;
    tawa::mma(o, tawa::convert<Element>(p), v); // O += P V
    m_i = m_new;
  }
  tawa::store(O.batch(bh), m0, 0, o / l_i);
  tawa::store(LSE.batch(bh), m0, 0, (m_i + tawa::log2(l_i)) * attention::kLn2);
}

int tawa_attention_forward(const void *q, const void *k, const void *v, void *o,
                           float *lse, int batch_heads, int seqlen_q,
                           int seqlen_k, float softmax_scale, void *stream) {
  if (batch_heads < 0 || seqlen_q < 0 || seqlen_k < 0)
    return cudaErrorInvalidValue;
  if (batch_heads == 0 || seqlen_q == 0)
    return cudaSuccess;
  const long long q_stride = static_cast<long long>(seqlen_q) * kHeadDim;
  const long long k_stride = static_cast<long long>(seqlen_k) * kHeadDim;
  tawa::Matrix<const Element> Q{static_cast<const Element *>(q),
                                seqlen_q,
                                kHeadDim,
                                kHeadDim,
                                batch_heads,
                                q_stride};
  tawa::Matrix<const Element> K{static_cast<const Element *>(k),
                                seqlen_k,
                                kHeadDim,
                                kHeadDim,
                                batch_heads,
                                k_stride};
  tawa::Matrix<const Element> V{static_cast<const Element *>(v),
                                seqlen_k,
                                kHeadDim,
                                kHeadDim,
                                batch_heads,
                                k_stride};
  tawa::Matrix<Element> O{static_cast<Element *>(o),
                          seqlen_q,
                          kHeadDim,
                          kHeadDim,
                          batch_heads,
                          q_stride};
  tawa::Matrix<float> LSE{lse, seqlen_q, 1, 1, batch_heads, seqlen_q};
  dim3 grid(tawa::ceil_div(seqlen_q, kBlockM), batch_heads);
  attention_fwd<<<grid, 128, 0, static_cast<cudaStream_t>(stream)>>>(
      Q, K, V, O, LSE, softmax_scale * attention::kLog2e);
  return static_cast<int>(cudaPeekAtLastError());
}

void tawa_attention_variant(int *head_dim, int *bf16, int *causal) {
  *head_dim = kHeadDim;
  *bf16 = sizeof(Element) == 2 && !std::is_same<Element, __half>::value;
  *causal = attention::kCausal;
}
