// [tawa-unsupported] diagnostics of the tile ops (lib/TileProgram.cpp) that
// well-typed code can reach (a mismatched shape or element type is already
// a C++ error of tile.h), each located at the op.
// RUN: %tawa-rewrite %s --check -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;
using In = tawa::Matrix<const bf16>;
using Out = tawa::Matrix<bf16>;
using Acc = tawa::Accumulator<float, 128, 128>;

__device__ Acc twice(const Acc &a) { return a * 2.0f; }

__global__ void predicate_variable(In Q, In K, In V, Out O, float c) {
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
    // CHECK: ops.cu:[[@LINE+1]]:5: warning: statement not supported in a tile loop; the loop body may hold 'auto t = tawa::load<R, C>(...)' declarations, 'tawa::mma(...)' and 'tawa::mask(...)' calls, and declarations, assignments and '*=' of accumulators and row vectors [tawa-unsupported]
    tawa::Predicate keep = tawa::col(n0) < K.rows;
    // CHECK: ops.cu:[[@LINE+1]]:19: warning: the predicate of 'tawa::mask' compares 'tawa::row(r0)' or 'tawa::col(c0)' with an index or an integer (<, <=, >, >=) [tawa-unsupported]
    tawa::mask(s, keep);
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

__global__ void index_float(In Q, In K, In V, Out O, float c) {
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
    // CHECK: ops.cu:[[@LINE+1]]:35: warning: expected 'tawa::row(r0)', 'tawa::col(c0)' (plus or minus an integer) or an integer [tawa-unsupported]
    tawa::mask(s, tawa::col(n0) < c);
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

__global__ void unknown_call(In Q, In K, In V, Out O, float c) {
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
    // CHECK: ops.cu:[[@LINE+1]]:14: warning: expression not supported in a tile op; expected accumulators, row vectors and scalars combined with + - * /, 'tawa::exp2', 'tawa::log2', 'tawa::max', 'tawa::row_max', 'tawa::row_sum', 'tawa::relu', 'tawa::gelu', 'tawa::gelu_tanh', 'tawa::silu', 'tawa::leaky_relu', 'tawa::tanh' and 'tawa::sigmoid' (and, in the value of 'tawa::store', tiles 'tawa::load<R, C>(...)') [tawa-unsupported]
    auto p = twice(tawa::exp2(s * c - m_new));
    auto alpha = tawa::exp2(m - m_new);
    l = l * alpha + tawa::row_sum(p);
    o *= alpha;
    tawa::mma(o, tawa::convert<bf16>(p), v);
    m = m_new;
  }
  tawa::store(O.batch(bh), m0, 0, o / l);
}

__global__ void store_in_loop(In Q, In K, In V, Out O, float c) {
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
    // CHECK: ops.cu:[[@LINE+1]]:5: warning: 'tawa::store' belongs after the tile loop [tawa-unsupported]
    tawa::store(O.batch(bh), m0, 0, o);
  }
  tawa::store(O.batch(bh), m0, 0, o / l);
}

__global__ void prologue_use(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  // CHECK: ops.cu:[[@LINE+1]]:3: warning: the code before the tile loop may declare tiles, accumulators and row vectors, but not use them otherwise; tile ops belong in the loop or after it [tawa-unsupported]
  o *= 2.0f;
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

__global__ void prologue_expression(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  // CHECK: ops.cu:[[@LINE+1]]:8: warning: before the tile loop, accumulators and row vectors are declared with their initial value (zero, or a row vector's fill); compute them in the loop [tawa-unsupported]
  auto o2 = o * 2.0f;
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

__global__ void epilogue_load(In Q, In K, In V, Out O, float c) {
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
  tawa::store(O.batch(bh), m0, 0, o / l);
  // CHECK: ops.cu:[[@LINE+1]]:3: warning: statement not supported after the tile loop; expected 'tawa::store(C, row0, col0, value)' calls [tawa-unsupported]
  auto x = tawa::load<128, 128>(Q.batch(bh), m0, 0);
}

__global__ void tile_copy(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  // CHECK: ops.cu:[[@LINE+1]]:36: warning: a tile is declared as 'auto t = tawa::load<R, C>(matrix, row0, col0)' [tawa-unsupported]
  tawa::Tile<const bf16, 128, 128> q2 = q;
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
  tawa::store(O.batch(bh), m0, 0, o / l);
}
