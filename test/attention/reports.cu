// --dump-arefs (text, json, dot) and --explain of an attention tile loop:
// q is a one-shot aref, k and v travel apart, the ops run in the parts of
// the pipelined schedule, S and P are iteration-local consumer values and
// o, m and l loop-carried, and the causal mask lets the kernel skip tiles.
// RUN: %tawa-rewrite %s --check --dump-arefs -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: %tawa-rewrite %s --check --dump-arefs=json -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: %tawa-rewrite %s --check --dump-arefs=dot -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DOT
// RUN: %tawa-rewrite %s --check --explain -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=EXPLAIN
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;

__global__ void attn(tawa::Matrix<const bf16> Q, tawa::Matrix<const bf16> K,
                     tawa::Matrix<const bf16> V, tawa::Matrix<bf16> O,
                     tawa::Matrix<float> LSE, float c) {
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
    l = l * alpha + tawa::row_sum(p);
    o *= alpha;
    tawa::mma(o, tawa::convert<bf16>(p), v);
    m = m_new;
  }
  tawa::store(O.batch(bh), m0, 0, o / l);
  tawa::store(LSE.batch(bh), m0, 0, m + tawa::log2(l));
}

// TEXT: kernel attn: tile loop at reports.cu:21:3 (attention)
// TEXT-NEXT: loop: for (int n0 = 0; n0 < K.rows; n0 += 128)
// TEXT-NEXT: producer: load q = Q.batch(bh)[128 x 128 bf16] at (m0, 0) before the loop -> aref q
// TEXT-NEXT: producer: load k = K.batch(bh)[128 x 128 bf16] at (n0, 0) -> aref k
// TEXT-NEXT: producer: load v = V.batch(bh)[128 x 128 bf16] at (n0, 0) -> aref v
// TEXT-NEXT: aref q: {q}, 32768 bytes per slot, 2 stages -- loaded before the loop: filled once per tile and read by every iteration
// TEXT-NEXT: aref k: {k}, 32768 bytes per slot, 2 stages -- the only tile of the loop its mma reads: that mma starts before the other mma's tiles land
// TEXT-NEXT: aref v: {v}, 32768 bytes per slot, 2 stages -- the only tile of the loop its mma reads: that mma starts before the other mma's tiles land
// TEXT-NEXT: consumer (scores): mma s = q * k^T <- arefs q, k (S in registers, scale-d 0: no accumulation across iterations)
// TEXT-NEXT: consumer (softmax): mask tawa::mask(s, tawa::col(n0) <= tawa::row(m0))
// TEXT-NEXT: consumer (softmax): assign auto m_new = tawa::max(m, tawa::row_max(s) * c);
// TEXT-NEXT: consumer (softmax): assign auto p = tawa::exp2(s * c - m_new);
// TEXT-NEXT: consumer (softmax): assign auto alpha = tawa::exp2(m - m_new);
// TEXT-NEXT: consumer (softmax): assign l = l * alpha + tawa::row_sum(p)
// TEXT-NEXT: consumer (rescale): scale o *= alpha
// TEXT-NEXT: consumer (output): mma o += convert<bf16>(p) * v <- aref v (A from registers)
// TEXT-NEXT: consumer (carry): assign m = m_new
// TEXT-NEXT: value o: f32 128 x 128, loop-carried, in consumer registers (2 warpgroups x 64 rows)
// TEXT-NEXT: value m: row vector of 128, loop-carried, in consumer registers (2 warpgroups x 64 rows)
// TEXT-NEXT: value l: row vector of 128, loop-carried, in consumer registers (2 warpgroups x 64 rows)
// TEXT-NEXT: value s: f32 128 x 128, iteration-local, in consumer registers (2 warpgroups x 64 rows)
// TEXT-NEXT: value m_new: row vector of 128, iteration-local, in consumer registers (2 warpgroups x 64 rows)
// TEXT-NEXT: value p: f32 128 x 128, iteration-local, in consumer registers (2 warpgroups x 64 rows)
// TEXT-NEXT: value alpha: row vector of 128, iteration-local, in consumer registers (2 warpgroups x 64 rows)
// TEXT-NEXT: skip: tiles of keys where 'tawa::mask(s, tawa::col(n0) <= tawa::row(m0))' holds nowhere (online softmax leaves m, l and o unchanged there; needs c > 0, checked at run time)
// TEXT-NEXT: epilogue: tawa::store(O.batch(bh), m0, 0, o / l)
// TEXT-NEXT: epilogue: tawa::store(LSE.batch(bh), m0, 0, m + tawa::log2(l))
// TEXT-NEXT: roles: producer warpgroup 0 (setmaxnreg 24), consumer warpgroups 1-2 (setmaxnreg 240, 64 queries each, wgmma in turns, softmax under the previous P V), 384 threads, 231424 bytes of shared memory

// JSON: "arefs": [
// JSON: "name": "q",
// JSON-NEXT: "one_shot": true,
// JSON: "stages": 2,
// JSON: "family": "attention",
// JSON: "region": "prologue",
// JSON: "part": "rescale",
// JSON: "longest_first": true,
// JSON: "overlap": true,
// JSON: "schedule": "pingpong",
// JSON: "skip_masks": [
// JSON-NEXT: "tawa::mask(s, tawa::col(n0) <= tawa::row(m0))"
// JSON: "loop_carried": true,
// JSON-NEXT: "name": "o",

// DOT: digraph "attn" {
// DOT: load0 [label="TMA load q [128 x 128]\nonce per tile"];
// DOT: aref0 -> scores;
// DOT: aref2 -> output;
// DOT: scores -> softmax -> output -> store;

// EXPLAIN: kernel attn: tile loop at reports.cu:21:3
// EXPLAIN-NEXT: family: attention -- two mma in the loop (S = Q K^T, O += P V)
// EXPLAIN-NEXT: result: rewritten into a warp-specialized kernel
// EXPLAIN-NEXT: tile: 128 queries x 128 keys, head 128 bf16 -- the tiles of 'q' and 'k'
// EXPLAIN: skip: tiles of keys a mask hides entirely -- the loop is online softmax, which such a tile leaves unchanged
// EXPLAIN: consumers: 2 -- one per 64 of the 128 queries of 'q'
// EXPLAIN: stages: 2 -- the most that fit 232448 bytes beside the queries and the staging, capped at 4
// EXPLAIN: query slots: 2 -- the next tile's queries load while this tile's loop runs
// EXPLAIN: schedule: pingpong -- the consumers issue their wgmma in turn, so one's softmax runs under the other's matrix products
// EXPLAIN: overlap: on -- the softmax of one iteration runs while the P V wgmma of the previous one does
// EXPLAIN: persistent: off, one CTA per tile, longest tiles first (skipped tiles of keys make the tiles' work differ) -- the block scheduler balances tiles of different lengths as CTAs finish
