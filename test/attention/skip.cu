// Tiles of keys a mask hides are skipped only where the loop is online
// softmax (lib/Attention.cpp, the skip proof); otherwise every tile runs,
// masked, and --explain says why none is skipped.
// RUN: %tawa-rewrite %s -o %t.cu --explain -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: grep -v '// ' %t.cu | FileCheck %s --check-prefix=EMIT
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;
using In = tawa::Matrix<const bf16>;
using Out = tawa::Matrix<bf16>;

// The sum of the probabilities is not rescaled: not online softmax.
__global__ void plain_sum(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) <= tawa::row(m0));
    auto m_new = tawa::max(m, tawa::row_max(s) * c);
    auto p = tawa::exp2(s * c - m_new);
    auto alpha = tawa::exp2(m - m_new);
    l = l + tawa::row_sum(p);
    o *= alpha;
    tawa::mma(o, tawa::convert<bf16>(p), v);
    m = m_new;
  }
  tawa::store(O.batch(bh), m0, 0, o / l);
}
// EXPLAIN-LABEL: kernel plain_sum: tile loop at skip.cu:19:3
// EXPLAIN: skip: none -- the loop is not online softmax in the form of docs/tile-language.md (m_new = max(m, row_max(s) * c), p = exp2(s * c - m_new), alpha = exp2(m - m_new), l = l * alpha + row_sum(p), o *= alpha, then m = m_new)
// EXPLAIN: persistent: on, the tiles of one (y, z) together
// EMIT-LABEL: plain_sum(In Q, In K
// EMIT-NOT: holds_nowhere
// EMIT: tawa::rt::mask<-1, 1, false>(s, n0 - m0 - consumer * 64);
// EMIT-LABEL: inline cudaError_t plain_sum_launch(

// The row maxima start at +inf: a skipped tile would not leave them as the
// kernel as written does.
__global__ void plus_inf(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(INFINITY), l(0.0f);
#pragma tawa tile
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) <= tawa::row(m0));
    auto m_new = tawa::max(m, tawa::row_max(s) * c);
    auto p = tawa::exp2(s * c - m_new);
    auto alpha = tawa::exp2(m - m_new);
    l = l * alpha + tawa::row_sum(p);
    o *= alpha;
    tawa::mma(o, tawa::convert<bf16>(p), v);
    m = m_new;
  }
  tawa::store(O.batch(bh), m0, 0, o / l);
}
// EXPLAIN-LABEL: kernel plus_inf: tile loop at skip.cu:51:3
// EXPLAIN: skip: none -- the row statistics 'm' and 'l' do not start as online softmax's (-inf or a finite maximum, and a sum of 0)
// EMIT-LABEL: plus_inf(In Q, In K
// EMIT-NOT: holds_nowhere
// EMIT-LABEL: inline cudaError_t plus_inf_launch(
