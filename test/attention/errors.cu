// [tawa-unsupported] diagnostics of attention's form (lib/Attention.cpp)
// and plan (lib/AttentionPlan.cpp): each kernel breaks one rule, is left
// unchanged, and gets one warning at the construct at fault.
// RUN: %tawa-rewrite %s --check -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;
using In = tawa::Matrix<const bf16>;
using Out = tawa::Matrix<bf16>;

__global__ void score_not_transposed(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    // CHECK: errors.cu:[[@LINE+1]]:5: warning: the first 'tawa::mma' of attention's tile loop computes the scores, 'tawa::mma(s, q, tawa::transpose(k))', into an accumulator declared in the loop, q loaded before the loop and k in it [tawa-unsupported]
    tawa::mma(s, q, k);
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void score_into_o(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    // CHECK: errors.cu:[[@LINE+1]]:5: warning: the first 'tawa::mma' of attention's tile loop computes the scores, 'tawa::mma(s, q, tawa::transpose(k))', into an accumulator declared in the loop, q loaded before the loop and k in it [tawa-unsupported]
    tawa::mma(o, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void output_tile_operand(In Q, In K, In V, Out O, float c) {
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
    tawa::mask(s, tawa::col(n0) < K.rows);
    auto m_new = tawa::max(m, tawa::row_max(s) * c);
    auto p = tawa::exp2(s * c - m_new);
    auto alpha = tawa::exp2(m - m_new);
    l = l * alpha + tawa::row_sum(p);
    o *= alpha;
    // CHECK: errors.cu:[[@LINE+1]]:5: warning: the second 'tawa::mma' of attention's tile loop accumulates the output, 'tawa::mma(o, tawa::convert<T>(p), v)', into an accumulator declared before the loop, p an accumulator of the loop and v a tile loaded in it [tawa-unsupported]
    tawa::mma(o, q, v);
    m = m_new;
  }
  tawa::store(O.batch(bh), m0, 0, o / l);
}

__global__ void q_in_loop(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    // CHECK: errors.cu:[[@LINE+1]]:5: warning: the A operand of the score mma is the query tile, loaded with 'tawa::load' before the tile loop (once per tile) [tawa-unsupported]
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void extra_load(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    // CHECK: errors.cu:[[@LINE+1]]:10: warning: attention's tile loop loads the queries before the loop and the keys and values in it; tile 'w' is none of them [tawa-unsupported]
    auto w = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void odd_local(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    // CHECK: errors.cu:[[@LINE+1]]:39: warning: 't' has the shape 128 x 128 in attention's tile loop, not 128 x 64 [tawa-unsupported]
    tawa::Accumulator<float, 128, 64> t;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void op_before_scores(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    // CHECK: errors.cu:[[@LINE+1]]:5: warning: before the score mma, attention's tile loop holds the loads and declarations [tawa-unsupported]
    tawa::mask(s, tawa::col(n0) < K.rows);
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void softmax_reads_o(In Q, In K, In V, Out O, float c) {
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
    tawa::mask(s, tawa::col(n0) < K.rows);
    // CHECK: errors.cu:[[@LINE+1]]:5: warning: between the two mma only 'o *= x' may use 'o': the previous iteration's 'tawa::mma(o, ...)' is still accumulating into it while the softmax runs [tawa-unsupported]
    auto m_new = tawa::max(m, tawa::row_max(o) * c);
    auto p = tawa::exp2(s * c - m_new);
    auto alpha = tawa::exp2(m - m_new);
    l = l * alpha + tawa::row_sum(p);
    o *= alpha;
    tawa::mma(o, tawa::convert<bf16>(p), v);
    m = m_new;
  }
  tawa::store(O.batch(bh), m0, 0, o / l);
}

__global__ void mask_not_scores(In Q, In K, In V, Out O, float c) {
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
    tawa::mask(s, tawa::col(n0) < K.rows);
    auto m_new = tawa::max(m, tawa::row_max(s) * c);
    auto p = tawa::exp2(s * c - m_new);
    // CHECK: errors.cu:[[@LINE+1]]:5: warning: 'tawa::mask' applies to the scores 's' [tawa-unsupported]
    tawa::mask(p, tawa::col(n0) < K.rows);
    auto alpha = tawa::exp2(m - m_new);
    l = l * alpha + tawa::row_sum(p);
    o *= alpha;
    tawa::mma(o, tawa::convert<bf16>(p), v);
    m = m_new;
  }
  tawa::store(O.batch(bh), m0, 0, o / l);
}

__global__ void rescale_then_write(In Q, In K, In V, Out O, float c) {
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
    tawa::mask(s, tawa::col(n0) < K.rows);
    auto m_new = tawa::max(m, tawa::row_max(s) * c);
    auto p = tawa::exp2(s * c - m_new);
    tawa::RowVector<float, 128> alpha(1.0f);
    // CHECK: errors.cu:[[@LINE+3]]:5: warning: 'alpha' is written after 'o *= ...' reads it; the rescale of the output runs after the softmax, so compute its factor first [tawa-unsupported]
    // CHECK: errors.cu:[[@LINE+1]]:5: note: the rescale is here
    o *= alpha;
    alpha = tawa::exp2(m - m_new);
    l = l * alpha + tawa::row_sum(p);
    tawa::mma(o, tawa::convert<bf16>(p), v);
    m = m_new;
  }
  tawa::store(O.batch(bh), m0, 0, o / l);
}

__global__ void carry_writes_o(In Q, In K, In V, Out O, float c) {
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
    tawa::mask(s, tawa::col(n0) < K.rows);
    auto m_new = tawa::max(m, tawa::row_max(s) * c);
    auto p = tawa::exp2(s * c - m_new);
    auto alpha = tawa::exp2(m - m_new);
    l = l * alpha + tawa::row_sum(p);
    o *= alpha;
    tawa::mma(o, tawa::convert<bf16>(p), v);
    m = m_new;
    // CHECK: errors.cu:[[@LINE+1]]:5: warning: after 'tawa::mma(o, ...)' attention's tile loop may only assign row vectors and accumulators other than 'o' and 'p' [tawa-unsupported]
    o *= alpha;
  }
  tawa::store(O.batch(bh), m0, 0, o / l);
}

__global__ void two_outputs(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  // CHECK: errors.cu:[[@LINE+1]]:38: warning: attention's tile loop has one accumulator before the loop, the output 'o' [tawa-unsupported]
  tawa::Accumulator<float, 128, 128> o2;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void never_stored(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile
  // CHECK: errors.cu:[[@LINE+1]]:3: warning: the output 'o' is never stored; expected 'tawa::store(O, row0, col0, ...)' after the loop [tawa-unsupported]
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
    auto m_new = tawa::max(m, tawa::row_max(s) * c);
    auto p = tawa::exp2(s * c - m_new);
    auto alpha = tawa::exp2(m - m_new);
    l = l * alpha + tawa::row_sum(p);
    o *= alpha;
    tawa::mma(o, tawa::convert<bf16>(p), v);
    m = m_new;
  }
  ;
}

__global__ void head_dim_96(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  // CHECK: errors.cu:[[@LINE+1]]:8: warning: the head dimension of 'q' is 96; attention's tiles take 64, 128, 192 or 256 (whole 128-byte TMA boxes) [tawa-unsupported]
  auto q = tawa::load<128, 96>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 96> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 96>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 96>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void keys_200(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile
  for (int n0 = 0; n0 < K.rows; n0 += 200) {
    // CHECK: errors.cu:[[@LINE+1]]:10: warning: 'k' has 200 keys; expected a multiple of 16 from 16 to 256 (the k16 steps of P V, wgmma's N of Q K^T) [tawa-unsupported]
    auto k = tawa::load<200, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<200, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 200> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void queries_256(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  // CHECK: errors.cu:[[@LINE+1]]:8: warning: 'q' has 256 queries; expected 64, 128 or 192 (a consumer warpgroup per 64 rows, at most 3) [tawa-unsupported]
  auto q = tawa::load<256, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 256, 128> o;
  tawa::RowVector<float, 256> m(-INFINITY), l(0.0f);
#pragma tawa tile
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 256, 128> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void too_many_registers(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 256>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 256> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
// CHECK: errors.cu:[[@LINE+1]]:14: warning: a consumer thread needs about 336 registers (128 of the output, 128 of the scores, 64 of the probabilities, 16 more) but gets 240; use fewer keys per iteration [tawa-unsupported]
#pragma tawa tile
  for (int n0 = 0; n0 < K.rows; n0 += 256) {
    auto k = tawa::load<256, 256>(K.batch(bh), n0, 0);
    auto v = tawa::load<256, 256>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 256> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void consumers_clause(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
// CHECK: errors.cu:[[@LINE+1]]:19: warning: consumers(3): attention's consumer warpgroups own 64 query rows each, so 'q' (128 rows) takes consumers(2) [tawa-unsupported]
#pragma tawa tile consumers(3)
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void stages_clause(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
// CHECK: errors.cu:[[@LINE+1]]:19: warning: attention's rings need 32768 bytes of queries + 5 stages x 65536 bytes of keys and values; 232448 bytes of shared memory hold 3 stages; use fewer keys per iteration [tawa-unsupported]
#pragma tawa tile stages(5)
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void regs_clause(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
// CHECK: errors.cu:[[@LINE+1]]:19: warning: regs(40, 256) needs 70656 registers with 2 consumer warpgroups; an SM has 65536 [tawa-unsupported]
#pragma tawa tile regs(40, 256)
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void cluster_clause(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
// CHECK: errors.cu:[[@LINE+1]]:19: warning: clause 'cluster' applies to GEMM tile loops; attention's takes stages, consumers, regs, persistent, schedule and overlap [tawa-unsupported]
#pragma tawa tile cluster(2)
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void narrow_clause(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
// CHECK: errors.cu:[[@LINE+1]]:29: warning: clause 'narrow' applies to GEMM tile loops; attention's takes stages, consumers, regs, persistent, schedule and overlap [tawa-unsupported]
#pragma tawa tile stages(2) narrow(off)
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void precision_clause(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
// CHECK: errors.cu:[[@LINE+1]]:19: warning: clause 'precision' applies to GEMM tile loops; attention's takes stages, consumers, regs, persistent, schedule and overlap [tawa-unsupported]
#pragma tawa tile precision(tf32)
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 128>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 128>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 128> s;
    tawa::mma(s, q, tawa::transpose(k));
    tawa::mask(s, tawa::col(n0) < K.rows);
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

__global__ void conditional_store(In Q, In K, In V, Out O, float c, int plain) {
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
    tawa::mask(s, tawa::col(n0) < K.rows);
    auto m_new = tawa::max(m, tawa::row_max(s) * c);
    auto p = tawa::exp2(s * c - m_new);
    auto alpha = tawa::exp2(m - m_new);
    l = l * alpha + tawa::row_sum(p);
    o *= alpha;
    tawa::mma(o, tawa::convert<bf16>(p), v);
    m = m_new;
  }
  // CHECK: errors.cu:[[@LINE+1]]:3: warning: attention's stored value has no conditional 'cond ? x : y' yet [tawa-unsupported]
  tawa::store(O.batch(bh), m0, 0, plain ? o : o / l);
}
