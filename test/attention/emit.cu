// The emitted attention kernel: one-shot q slots, the k and v rings, the
// skip of tiles a causal mask hides, the consumers' schedule (first
// iteration, steady state with the previous P V overlapped, last P V), the
// ops lowered onto wgmma fragments, the epilogue through TMA and the row
// stores, and the launcher; then the variants the clauses and tile sizes
// choose.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub
// RUN: grep -v '// CHECK' %t.cu | FileCheck %s
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;
using In = tawa::Matrix<const bf16>;
using Out = tawa::Matrix<bf16>;

__global__ void causal(In Q, In K, In V, Out O, tawa::Matrix<float> LSE,
                       float c) {
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

void run_causal(In Q, In K, In V, Out O, tawa::Matrix<float> LSE, float c,
                cudaStream_t st) {
  causal<<<dim3(8, 16), 128, 0, st>>>(Q, K, V, O, LSE, c);
}

// CHECK-LABEL: struct causal_shared {
// CHECK-NEXT:   static constexpr int kStages = 2;
// CHECK-NEXT:   static constexpr int kConsumers = 2;
// CHECK-NEXT:   static constexpr int kQueryStages = 2;
// CHECK:        q_slot q[kQueryStages];
// CHECK-NEXT:   k_slot k[kStages];
// CHECK-NEXT:   v_slot v[kStages];
// CHECK-NEXT:   tawa::rt::Aref<kQueryStages> q_aref;
// CHECK:        Staging epilogue[kConsumers];
// CHECK-LABEL: __global__ void __launch_bounds__(384, 1)
// Producer: q once per tile, then the tiles of keys the mask does not hide.
// CHECK:        tawa::rt::warpgroup_release_registers<24>();
// CHECK:        tawa::rt::tma_load_boxes<2, 128, true>(smem.q[q.stage].q, &Q_tensor_map,
// CHECK:        if (c > 0 &&
// CHECK-NEXT:       tawa::rt::LinearPredicate<-1, 1, false>::holds_nowhere<128, 128>(
// CHECK-NEXT:           n0 - m0)) {
// CHECK-NEXT:     continue;
// CHECK:        smem.k_aref.put(k, sizeof(smem.k[0].k));
// CHECK:        smem.v_aref.put(v, sizeof(smem.v[0].v));
// Consumers: their fragments, the first iteration, the steady state.
// CHECK:        tawa::rt::warpgroup_acquire_registers<240>();
// CHECK:        const tawa::rt::WarpgroupTurns<kConsumers, 1 + kConsumers> turns(consumer);
// CHECK:        tawa::rt::WgmmaAccumulator<1, 128> o;
// CHECK-NEXT:   o.zero();
// CHECK-NEXT:   tawa::rt::RowFragment<1> m(-INFINITY);
// CHECK-NEXT:   tawa::rt::RowFragment<1> l(0.0f);
// CHECK:        tawa::rt::WgmmaOperandA<1, 128> p_operand;
// CHECK:        if (!started) {
// CHECK:          turns.wait();
// CHECK-NEXT:     tawa::rt::wgmma_ss_kmajor<128, 128, 128>(
// CHECK-NEXT:         s, smem.q[q.stage].q + consumer * 64 * 64, smem.k[k.stage].k,
// CHECK-NEXT:         /*accumulate=*/false);
// CHECK-NEXT:     turns.pass();
// CHECK-NEXT:     tawa::rt::wgmma_wait<0>();
// CHECK:          tawa::rt::mask<-1, 1, false>(s, n0 - m0 - consumer * 64);
// CHECK:            m_new[r] = fmaxf(m[r], row_max_s[r] * c);
// CHECK:          p.at(e) = tawa::rt::exp2(
// CHECK-NEXT:         tawa::rt::minus_row(s.at(e) * c, m_new[p.row_of(e)]));
// CHECK:          alpha[r] = tawa::rt::exp2(tawa::rt::minus_row(m[r], m_new[r]));
// CHECK:            l[r] = l[r] * alpha[r] + row_sum_p[r];
// CHECK:          o.at(e) *= alpha[o.row_of(e)];
// CHECK-NEXT:     tawa::rt::convert_operand<__nv_bfloat16>(p_operand, p);
// CHECK:          started = true;
// CHECK:        tawa::rt::wgmma_rs_mnmajor(o, p_operand, smem.v[v.stage].v);
// CHECK-NEXT:   turns.pass();
// CHECK-NEXT:   tawa::rt::wgmma_wait<1>();
// The rescale waits for the previous P V.
// CHECK:        tawa::rt::wgmma_wait<0>();
// CHECK-NEXT:   o.fence();
// CHECK-NEXT:   p_operand.fence();
// CHECK-NEXT:   smem.v_aref.consumed(v);
// CHECK-NEXT:   v.advance();
// CHECK:        o.at(e) *= alpha[o.row_of(e)];
// The last P V, after the queries are released.
// CHECK:        smem.q_aref.consumed(q);
// CHECK:        if (started) {
// CHECK:          tawa::rt::wgmma_rs_mnmajor(o, p_operand, smem.v[v.stage].v);
// Epilogue: o / l as one reciprocal per row; TMA store; the row vector.
// CHECK:        l_reciprocal[r] = 1.0f / l[r];
// CHECK:        stored.at(e) = o.at(e) * l_reciprocal[stored.row_of(e)];
// CHECK:        tawa::rt::store_accumulator_tma<true>(
// CHECK-NEXT:       &O_store_map, smem.epilogue[consumer], m0 + consumer * 64, 0, bh,
// CHECK:        stored2[r] = m[r] + log2f(l[r]);
// CHECK-NEXT:   tawa::rt::store_rows(LSE.batch(bh), m0 + consumer * 64, 0, stored2);
// CHECK:        turns.finish();
// Launcher: tensor maps, the grouped longest-first order, one CTA per tile.
// CHECK-LABEL: inline cudaError_t causal_launch(
// CHECK:        maps = tawa::rt::make_tensor_map(&Q_tensor_map, Q_aligned, 128, 64,
// CHECK:        causal_reference<<<grid, block, shared, stream>>>(Q, K, V, O, LSE, c);
// CHECK:        tawa::rt::make_tensor_map(&O_store_map, O, 64, 64, /*batched=*/true)
// CHECK:        if (cudaError_t e = tawa::rt::longest_first_group(grid, &group);
// CHECK:        const tawa::rt::OrderedTileSchedule schedule(grid, /*longest_first=*/true,
// CHECK:        const int ctas = schedule.count();
// CHECK:        causal<<<ctas, 384, shared_bytes, stream>>>(
// CHECK-LABEL: void run_causal(
// CHECK:        causal_launch(dim3(8, 16), 128, 0, st, Q, K, V, O, LSE, c);

__global__ void serial(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile overlap(off)
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

// overlap(off): the ops in program order, each mma waited for.
// CHECK-LABEL: struct serial_shared {
// CHECK:        static constexpr int kQueryStages = 2;
// CHECK-LABEL: serial(In Q, In K
// CHECK-NOT:    started
// CHECK:        tawa::rt::convert_operand<__nv_bfloat16>(p_operand, p);
// CHECK-NEXT:   turns.wait();
// CHECK-NEXT:   smem.v_aref.get(v);
// CHECK-NEXT:   tawa::rt::wgmma_rs_mnmajor(o, p_operand, smem.v[v.stage].v);
// CHECK-NEXT:   turns.pass();
// CHECK-NEXT:   tawa::rt::wgmma_wait<0>();
// A column mask skips no row tile more than another: the persistent walk.
// CHECK-LABEL: inline cudaError_t serial_launch(
// CHECK:        const tawa::rt::OrderedTileSchedule schedule(grid, /*longest_first=*/false);
// CHECK:        if (cudaError_t e = tawa::rt::persistent_ctas(schedule.count(), 1, &ctas);

__global__ void cooperative(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile schedule(cooperative)
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

// schedule(cooperative): no turns between the consumers.
// CHECK-LABEL: cooperative(In Q, In K
// CHECK-NOT:    turns.
// CHECK-LABEL: inline cudaError_t cooperative_launch(

__global__ void wide(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 256>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 256> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile 
  for (int n0 = 0; n0 < K.rows; n0 += 80) {
    auto k = tawa::load<80, 256>(K.batch(bh), n0, 0);
    auto v = tawa::load<80, 256>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 128, 80> s;
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

// Head dimension 256: separate staging leaves no room for two stages, so
// the epilogue stages in the query slot, after every consumer is done with
// the queries, and releases it after the stores have read it.
// CHECK-LABEL: struct wide_shared {
// CHECK:        static constexpr int kQueryStages = 1;
// CHECK:        using Staging = tawa::rt::EpilogueStaging<__nv_bfloat16, 64, 4>;
// CHECK-NEXT:   static_assert(sizeof(Staging) * kConsumers <= sizeof(q_slot),
// CHECK-LABEL: wide(In Q, In K
// CHECK:        tawa::rt::tma_load_boxes<4, 128, true>(smem.q[q.stage].q
// CHECK:        tawa::rt::wgmma_ss_kmajor<256, 128, 80>(
// CHECK:        tawa::rt::named_barrier_sync(5, kConsumers * tawa::rt::kWarpgroupThreads);
// CHECK:            reinterpret_cast<wide_shared::Staging *>(
// CHECK:        tawa::rt::tma_store_wait_read<0>();
// CHECK:        tawa::rt::named_barrier_sync(1 + consumer, tawa::rt::kWarpgroupThreads);
// CHECK-NEXT:   smem.q_aref.consumed(q);
// CHECK-LABEL: inline cudaError_t wide_launch(

__global__ void three(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 192;
  auto q = tawa::load<192, 64>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 192, 64> o;
  tawa::RowVector<float, 192> m(-INFINITY), l(0.0f);
#pragma tawa tile 
  for (int n0 = 0; n0 < K.rows; n0 += 128) {
    auto k = tawa::load<128, 64>(K.batch(bh), n0, 0);
    auto v = tawa::load<128, 64>(V.batch(bh), n0, 0);
    tawa::Accumulator<float, 192, 128> s;
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

// 192 queries: three consumer warpgroups of 64 rows, 160 registers each.
// CHECK-LABEL: struct three_shared {
// CHECK-NEXT:   static constexpr int kStages = 4;
// CHECK-NEXT:   static constexpr int kConsumers = 3;
// CHECK-LABEL: __global__ void __launch_bounds__(512, 1)
// CHECK:        tawa::rt::warpgroup_acquire_registers<160>();
// CHECK:        tawa::rt::wgmma_ss_kmajor<64, 192, 128>(
// CHECK-LABEL: inline cudaError_t three_launch(

__global__ void pinned(In Q, In K, In V, Out O, float c) {
  const int bh = blockIdx.y, m0 = blockIdx.x * 128;
  auto q = tawa::load<128, 128>(Q.batch(bh), m0, 0);
  tawa::Accumulator<float, 128, 128> o;
  tawa::RowVector<float, 128> m(-INFINITY), l(0.0f);
#pragma tawa tile persistent(on)
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

// persistent(on) with a causal mask: the persistent walk, longest first.
// CHECK-LABEL: inline cudaError_t pinned_launch(
// CHECK:        const tawa::rt::OrderedTileSchedule schedule(grid, /*longest_first=*/true,
// CHECK:        if (cudaError_t e = tawa::rt::persistent_ctas(schedule.count(), 1, &ctas);
