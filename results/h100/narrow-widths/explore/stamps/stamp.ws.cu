#include "gemm.h"
#include <tawa/tile.h>
#include <tawa/runtime.cuh>

// C[M,N] = A[M,K] * B[N,K]^T   (bf16 in, fp32 accumulate, bf16 out)
/// gemm_nt as written (the portable tile code of tawa/tile.h): gemm_nt_launch
/// runs it where TMA cannot address the data (unaligned addresses or leading
/// dimensions).
__global__ void gemm_nt_reference(tawa::Matrix<const __nv_bfloat16> A,
                                  tawa::Matrix<const __nv_bfloat16> B,
                                  tawa::Matrix<__nv_bfloat16> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

/// Shared memory of gemm_nt: aref `a_b`, 4 stages of {a: 128 x 64, b: 256 x 64}
/// (49152 bytes each).
struct gemm_nt_shared {
  struct a_b_slot {
    alignas(1024) __nv_bfloat16 a[128 * 64];
    alignas(1024) __nv_bfloat16 b[256 * 64];
  };
  a_b_slot a_b[4];
  tawa::rt::Aref<4> a_b_aref;
  tawa::rt::EpilogueStaging<__nv_bfloat16, 64, 2> epilogue[2];
};

/// gemm_nt, warp-specialized by tawa-rewrite from `#pragma tawa tile` at
/// gemm.cu:10: warpgroup 0 produces aref `a_b` with TMA; warpgroups 1-2 consume
/// it with wgmma m64n256k16, 64 rows of the 128 x 256 accumulator each.
__global__ void __launch_bounds__(384, 1)
    gemm_nt(tawa::Matrix<const __nv_bfloat16> A,
            tawa::Matrix<const __nv_bfloat16> B, tawa::Matrix<__nv_bfloat16> C,
            const __grid_constant__ CUtensorMap A_tensor_map,
            const __grid_constant__ CUtensorMap B_tensor_map,
            const __grid_constant__ CUtensorMap C_store_map,
            const bool tma_store, const tawa::rt::TileSchedule schedule,
            const tawa::rt::SplitTail split_tail) {
  constexpr int kStages = 4;
  constexpr int kConsumers = 2;
  extern __shared__ unsigned char tawa_smem[];
  gemm_nt_shared &smem = tawa::rt::shared_storage<gemm_nt_shared>(tawa_smem);
  if (threadIdx.x == 0) {
    smem.a_b_aref.init(kConsumers);
  }
  __syncthreads();

  if (tawa::rt::warpgroup_index() == 0) {
    // Producer warpgroup: one thread issues the TMA loads of every stage.
    tawa::rt::warpgroup_release_registers<40>();
    if (threadIdx.x == 0) {
      tawa::rt::ArefCursor<kStages> a_b;
      // Tile (x, y, z) is the work of block (x, y, z) of the original launch.
      // Whole tiles, then the last partial wave, split by K where the launch
      // found it pays (tawa/runtime/split_tail.cuh). Every tile runs this K
      // loop: counted first, its trips let a launch of fewer tiles than CTAs
      // split them all.
      int trips = 0;
      for (int k0 = 0; k0 < A.cols; k0 += 64) {
        ++trips;
      }
      const tawa::rt::SplitTailWalk<64> walk(split_tail, schedule.count());
      int k_iter = 0;
      for (tawa::rt::TileWork work = walk.first(trips); walk.valid(work);
           walk.advance(work, k_iter)) {
        const uint3 tile = schedule.tile(work.unit);
        const int m0 = tile.y * 128, n0 = tile.x * 256;
        k_iter = 0;
        for (int k0 = 0; k0 < A.cols; k0 += 64) {
          if (k_iter++ < work.k_begin) {
            continue;
          }
          if (k_iter > work.k_end) {
            break;
          }
          gemm_nt_shared::a_b_slot &slot = smem.a_b[a_b.stage];
          smem.a_b_aref.put(a_b, sizeof(slot.a) + sizeof(slot.b));
          tawa::rt::tma_load_2d(slot.a, &A_tensor_map,
                                smem.a_b_aref.full_barrier(a_b), k0, m0);
          tawa::rt::tma_load_2d(slot.b, &B_tensor_map,
                                smem.a_b_aref.full_barrier(a_b), k0, n0);
          a_b.advance();
        }
      }
    }
  } else {
    // Consumer warpgroups: warpgroup 1 + c owns rows [64 c, 64 c + 64) of acc.
    tawa::rt::warpgroup_acquire_registers<232>();
    const int consumer = tawa::rt::warpgroup_index() - 1;
    tawa::rt::WgmmaAccumulator<1, 256> acc;
    // `a_b` reads the ring; `a_b_release` trails it by the one wgmma group kept
    // in flight.
    tawa::rt::ArefCursor<kStages> a_b, a_b_release;
    // The same walk as the producer's.
    // Whole tiles, then the last partial wave, split by K where the launch
    // found it pays (tawa/runtime/split_tail.cuh). Every tile runs this K loop:
    // counted first, its trips let a launch of fewer tiles than CTAs split them
    // all.
    int trips = 0;
    for (int k0 = 0; k0 < A.cols; k0 += 64) {
      ++trips;
    }
    const tawa::rt::SplitTailWalk<64> walk(split_tail, schedule.count());
    int k_iter = 0;
    for (tawa::rt::TileWork work = walk.first(trips); walk.valid(work);
         walk.advance(work, k_iter)) {
      const uint3 tile = schedule.tile(work.unit);
      const int m0 = tile.y * 128, n0 = tile.x * 256;
      int k_steps = 0;
      k_iter = 0;
      for (int k0 = 0; k0 < A.cols; k0 += 64) {
        if (k_iter++ < work.k_begin) {
          continue;
        }
        if (k_iter > work.k_end) {
          break;
        }
        gemm_nt_shared::a_b_slot &slot = smem.a_b[a_b.stage];
        smem.a_b_aref.get(a_b);
        tawa::rt::wgmma_nt<64>(acc, slot.a + consumer * 64 * 64, slot.b,
                               /*accumulate=*/k_steps > 0);
        tawa::rt::wgmma_wait<1>();
        if (k_steps++ > 0) {
          smem.a_b_aref.consumed(a_b_release);
          a_b_release.advance();
        }
        a_b.advance();
      }
      tawa::rt::wgmma_wait<0>();
      acc.fence();
      if (k_steps > 0) {
        smem.a_b_aref.consumed(a_b_release);
        a_b_release.advance();
      }
      if (work.kind == tawa::rt::TileWork::Piece) {
        // A piece of a split tile: its partial sums go to the workspace, for
        // the tile's head.
        tawa::rt::store_piece<kConsumers>(split_tail, work.slot, consumer, acc,
                                          /*barrier=*/1 + consumer);
        continue;
      }
      if (work.kind == tawa::rt::TileWork::Head) {
        tawa::rt::add_pieces<kConsumers>(split_tail, walk, work, consumer, acc,
                                         /*barrier=*/1 + consumer);
      }
      if (tma_store) {
        tawa::rt::store_accumulator_tma<false>(
            &C_store_map, smem.epilogue[consumer], m0 + consumer * 64, n0, 0,
            acc, /*zero=*/k_steps == 0, /*barrier=*/1 + consumer);
      } else {
        // TMA cannot address the output: the warpgroup copies the staged rows.
        tawa::rt::store_accumulator_staged(
            C, smem.epilogue[consumer], m0 + consumer * 64, n0, acc,
            /*zero=*/k_steps == 0, /*barrier=*/1 + consumer);
      }
    }
    // The stores must have read shared memory before the CTA ends.
    if (tma_store && tawa::rt::warpgroup_thread() == 0) {
      tawa::rt::tma_store_wait_all();
    }
  }
}

/// Shared memory of gemm_nt_narrow64: aref `a_b`, 8 stages of {a: 128 x 64, b:
/// 64 x 64} (24576 bytes each).
struct gemm_nt_narrow64_shared {
  struct a_b_slot {
    alignas(1024) __nv_bfloat16 a[128 * 64];
    alignas(1024) __nv_bfloat16 b[64 * 64];
  };
  a_b_slot a_b[8];
  tawa::rt::Aref<8> a_b_aref;
  tawa::rt::EpilogueStaging<__nv_bfloat16, 64, 1> epilogue[2];
};

/// gemm_nt_narrow64, warp-specialized by tawa-rewrite from `#pragma tawa tile`
/// at gemm.cu:10: warpgroup 0 produces aref `a_b` with TMA; warpgroups 1-2
/// consume it with wgmma m64n64k16, 64 rows of the 128 x 64 accumulator each.
/// Narrow tiles: each block's tile of the original launch is 4 CTA tiles of 128
/// x 64, for launches of few tiles.

__device__ unsigned long long stamp_buf[264][16];
__device__ __forceinline__ unsigned long long stamp_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}
#include <cstdio>
static void stamp_dump() {
  static unsigned long long h[264][16];
  cudaDeviceSynchronize();
  if (cudaMemcpyFromSymbol(h, stamp_buf, sizeof(h)) != cudaSuccess) { std::fprintf(stderr, "stamp copy failed\n"); return; }
  unsigned long long t0 = ~0ull;
  for (int c = 0; c < 264; ++c) if (h[c][0] && h[c][0] < t0) t0 = h[c][0];
  for (int c = 0; c < 264; ++c) {
    if (!h[c][0]) continue;
    std::fprintf(stderr, "STAMP %d", c);
    for (int i = 0; i < 16; ++i) {
      if (i % 5 == 1) { if (h[c][i]) std::fprintf(stderr, " |k%llu", h[c][i] - 1000000000ull); else std::fprintf(stderr, " |-"); }
      else std::fprintf(stderr, " %.2f", h[c][i] ? (h[c][i] - t0) / 1000.0 : -1.0);
    }
    std::fprintf(stderr, "\n");
  }
}
__global__ void __launch_bounds__(384, 1)
    gemm_nt_narrow64(tawa::Matrix<const __nv_bfloat16> A,
                     tawa::Matrix<const __nv_bfloat16> B,
                     tawa::Matrix<__nv_bfloat16> C,
                     const __grid_constant__ CUtensorMap A_tensor_map,
                     const __grid_constant__ CUtensorMap B_tensor_map,
                     const __grid_constant__ CUtensorMap C_store_map,
                     const bool tma_store,
                     const tawa::rt::TileSchedule schedule,
                     const tawa::rt::SplitTail split_tail) {
  constexpr int kStages = 8;
  constexpr int kConsumers = 2;
  extern __shared__ unsigned char tawa_smem[];
  gemm_nt_narrow64_shared &smem =
      tawa::rt::shared_storage<gemm_nt_narrow64_shared>(tawa_smem);
  if (threadIdx.x == 0) {
    smem.a_b_aref.init(kConsumers);
  }
  __syncthreads();

  if (tawa::rt::warpgroup_index() == 0) {
    // Producer warpgroup: one thread issues the TMA loads of every stage.
    tawa::rt::warpgroup_release_registers<40>();
    if (threadIdx.x == 0) {
      tawa::rt::ArefCursor<kStages> a_b;
      // Tile (x, y, z) is the work of block (x, y, z) of the original launch;
      // part p computes the p-th of its narrow column parts. Whole tiles, then
      // the last partial wave, split by K where the launch found it pays
      // (tawa/runtime/split_tail.cuh). Every tile runs this K loop: counted
      // first, its trips let a launch of fewer tiles than CTAs split them all.
      int trips = 0;
      for (int k0 = 0; k0 < A.cols; k0 += 64) {
        ++trips;
      }
      const tawa::rt::SplitTailWalk<64> walk(split_tail, schedule.count());
      int k_iter = 0;
      for (tawa::rt::TileWork work = walk.first(trips); walk.valid(work);
           walk.advance(work, k_iter)) {
        const uint3 tile = schedule.tile(work.unit);
        const int part = schedule.part(work.unit);
        const int m0 = tile.y * 128, n0 = tile.x * 256;
        k_iter = 0;
        for (int k0 = 0; k0 < A.cols; k0 += 64) {
          if (k_iter++ < work.k_begin) {
            continue;
          }
          if (k_iter > work.k_end) {
            break;
          }
          gemm_nt_narrow64_shared::a_b_slot &slot = smem.a_b[a_b.stage];
          smem.a_b_aref.put(a_b, sizeof(slot.a) + sizeof(slot.b));
          tawa::rt::tma_load_2d(slot.a, &A_tensor_map,
                                smem.a_b_aref.full_barrier(a_b), k0, m0);
          tawa::rt::tma_load_2d(slot.b, &B_tensor_map,
                                smem.a_b_aref.full_barrier(a_b), k0,
                                n0 + part * 64);
          a_b.advance();
        }
      }
    }
  } else {
    // Consumer warpgroups: warpgroup 1 + c owns rows [64 c, 64 c + 64) of acc.
    tawa::rt::warpgroup_acquire_registers<232>();
    const int consumer = tawa::rt::warpgroup_index() - 1;
    const bool stamper = consumer == 0 && tawa::rt::warpgroup_thread() == 0;
    int item = 0;
    if (stamper) { for (int i = 0; i < 16; ++i) stamp_buf[blockIdx.x][i] = 0; stamp_buf[blockIdx.x][0] = stamp_now(); }
    tawa::rt::WgmmaAccumulator<1, 64> acc;
    // `a_b` reads the ring; `a_b_release` trails it by the one wgmma group kept
    // in flight.
    tawa::rt::ArefCursor<kStages> a_b, a_b_release;
    // The same walk as the producer's.
    // Whole tiles, then the last partial wave, split by K where the launch
    // found it pays (tawa/runtime/split_tail.cuh). Every tile runs this K loop:
    // counted first, its trips let a launch of fewer tiles than CTAs split them
    // all.
    int trips = 0;
    for (int k0 = 0; k0 < A.cols; k0 += 64) {
      ++trips;
    }
    const tawa::rt::SplitTailWalk<64> walk(split_tail, schedule.count());
    int k_iter = 0;
    for (tawa::rt::TileWork work = walk.first(trips); walk.valid(work);
         walk.advance(work, k_iter)) {
      const uint3 tile = schedule.tile(work.unit);
      const int part = schedule.part(work.unit);
      const int m0 = tile.y * 128, n0 = tile.x * 256;
      int k_steps = 0;
      k_iter = 0;
      if (stamper && item < 3) stamp_buf[blockIdx.x][1 + 5 * item] = work.kind * 1000 + work.k_end - work.k_begin + 1000000000ull;
      for (int k0 = 0; k0 < A.cols; k0 += 64) {
        if (k_iter++ < work.k_begin) {
          continue;
        }
        if (k_iter > work.k_end) {
          break;
        }
        gemm_nt_narrow64_shared::a_b_slot &slot = smem.a_b[a_b.stage];
        smem.a_b_aref.get(a_b);
        tawa::rt::wgmma_nt<64>(acc, slot.a + consumer * 64 * 64, slot.b,
                               /*accumulate=*/k_steps > 0);
        tawa::rt::wgmma_wait<1>();
        if (k_steps++ > 0) {
          smem.a_b_aref.consumed(a_b_release);
          a_b_release.advance();
        }
        a_b.advance();
      }
      tawa::rt::wgmma_wait<0>();
      acc.fence();
      if (stamper && item < 3) stamp_buf[blockIdx.x][2 + 5 * item] = stamp_now();
      if (k_steps > 0) {
        smem.a_b_aref.consumed(a_b_release);
        a_b_release.advance();
      }
      if (work.kind == tawa::rt::TileWork::Piece) {
        // A piece of a split tile: its partial sums go to the workspace, for
        // the tile's head.
        tawa::rt::store_piece<kConsumers>(split_tail, work.slot, consumer, acc,
                                          /*barrier=*/1 + consumer);
        if (stamper && item < 3) stamp_buf[blockIdx.x][3 + 5 * item] = stamp_now();
        ++item;
        continue;
      }
      if (work.kind == tawa::rt::TileWork::Head) {
        tawa::rt::add_pieces<kConsumers>(split_tail, walk, work, consumer, acc,
                                         /*barrier=*/1 + consumer);
        if (stamper && item < 3) stamp_buf[blockIdx.x][3 + 5 * item] = stamp_now();
      }
      if (tma_store) {
        tawa::rt::store_accumulator_tma<false>(
            &C_store_map, smem.epilogue[consumer], m0 + consumer * 64,
            n0 + part * 64, 0, acc, /*zero=*/k_steps == 0,
            /*barrier=*/1 + consumer);
        if (stamper && item < 3) stamp_buf[blockIdx.x][4 + 5 * item] = stamp_now();
        ++item;
      } else {
        // TMA cannot address the output: the warpgroup copies the staged rows.
        tawa::rt::store_accumulator_staged(
            C, smem.epilogue[consumer], m0 + consumer * 64, n0 + part * 64, acc,
            /*zero=*/k_steps == 0, /*barrier=*/1 + consumer);
      }
    }
    // The stores must have read shared memory before the CTA ends.
    if (tma_store && tawa::rt::warpgroup_thread() == 0) {
      tawa::rt::tma_store_wait_all();
    }
  }
}

/// Launches gemm_nt_narrow64 over the tiles of `grid` (the grid of the original
/// launch, one 128 x 256 output tile per block, in 4 narrow CTA tiles of 128 x
/// 64 each): builds the tensor maps, raises the dynamic shared-memory limit,
/// and starts one CTA per SM, which walk the tiles in grouped raster order.
/// Where TMA cannot load the operands, runs the kernel as written with the
/// original `grid`, `block` and `shared`; where it cannot store C, the
/// consumers copy the staged tile row by row. Returns the first error.
inline cudaError_t gemm_nt_narrow64_launch_(dim3 grid, dim3 block, size_t shared,
                                           cudaStream_t stream,
                                           tawa::Matrix<const __nv_bfloat16> A,
                                           tawa::Matrix<const __nv_bfloat16> B,
                                           tawa::Matrix<__nv_bfloat16> C) {
  CUtensorMap A_tensor_map, B_tensor_map;
  // Operands TMA cannot read in place (an `ld` that is not a multiple of 16
  // bytes, say) are copied to aligned buffers on the stream, freed after the
  // launch (tawa/runtime/operand_copy.cuh).
  tawa::rt::OperandCopies copies(stream);
  auto A_aligned = A;
  auto B_aligned = B;
  cudaError_t maps = copies.aligned(A, &A_aligned);
  if (maps == cudaSuccess)
    maps = copies.aligned(B, &B_aligned);
  if (maps == cudaSuccess)
    maps = tawa::rt::make_tensor_map(&A_tensor_map, A_aligned, 128, 64);
  if (maps == cudaSuccess)
    maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 64, 64);
  if (maps != cudaSuccess) {
    // TMA cannot address this data: run the kernel as written.
    static bool noted = false;
    tawa::rt::note_fallback("gemm_nt", maps, noted);
    gemm_nt_reference<<<grid, block, shared, stream>>>(A, B, C);
    return cudaPeekAtLastError();
  }
  // Where TMA cannot address C (an `ld` that is not a multiple of 16 bytes,
  // say), the consumers copy the staged tile to it row by row.
  CUtensorMap C_store_map{};
  const bool tma_store =
      tawa::rt::make_tensor_map(&C_store_map, C, 64, 64) == cudaSuccess;
  const tawa::rt::TileSchedule schedule(grid, /*group=*/8, /*along_y=*/true,
                                        /*cluster=*/1, /*merge_x=*/1,
                                        /*merge_y=*/1, /*parts=*/4);
  int ctas = 0;
  if (cudaError_t e = tawa::rt::persistent_ctas(
          schedule.count(), schedule.cluster, &ctas, /*fill=*/true);
      e != cudaSuccess)
    return e;
  constexpr size_t shared_bytes =
      tawa::rt::shared_bytes<gemm_nt_narrow64_shared>();
  if (cudaError_t e = cudaFuncSetAttribute(
          gemm_nt_narrow64, cudaFuncAttributeMaxDynamicSharedMemorySize,
          shared_bytes);
      e != cudaSuccess)
    return e;
  tawa::rt::SplitTail split_tail;
  if (cudaError_t e =
          tawa::rt::split_tail_plan(ctas, 2, 128 * 64, stream, &split_tail);
      e != cudaSuccess)
    return e;
  gemm_nt_narrow64<<<ctas, 384, shared_bytes, stream>>>(
      A, B, C, A_tensor_map, B_tensor_map, C_store_map, tma_store, schedule,
      split_tail);
  return cudaPeekAtLastError();
}

#include <cstdlib>
inline cudaError_t gemm_nt_narrow64_launch(dim3 grid, dim3 block, size_t shared,
                                           cudaStream_t stream,
                                           tawa::Matrix<const __nv_bfloat16> A,
                                           tawa::Matrix<const __nv_bfloat16> B,
                                           tawa::Matrix<__nv_bfloat16> C) {
  static bool registered = (std::atexit(stamp_dump), true);
  (void)registered;
  return gemm_nt_narrow64_launch_(grid, block, shared, stream, A, B, C);
}

/// Shared memory of gemm_nt_narrow128: aref `a_b`, 6 stages of {a: 128 x 64, b:
/// 128 x 64} (32768 bytes each).
struct gemm_nt_narrow128_shared {
  struct a_b_slot {
    alignas(1024) __nv_bfloat16 a[128 * 64];
    alignas(1024) __nv_bfloat16 b[128 * 64];
  };
  a_b_slot a_b[6];
  tawa::rt::Aref<6> a_b_aref;
  tawa::rt::EpilogueStaging<__nv_bfloat16, 64, 2> epilogue[2];
};

/// gemm_nt_narrow128, warp-specialized by tawa-rewrite from `#pragma tawa tile`
/// at gemm.cu:10: warpgroup 0 produces aref `a_b` with TMA; warpgroups 1-2
/// consume it with wgmma m64n128k16, 64 rows of the 128 x 128 accumulator each.
/// Narrow tiles: each block's tile of the original launch is 2 CTA tiles of 128
/// x 128, for launches of few tiles.
__global__ void __launch_bounds__(384, 1)
    gemm_nt_narrow128(tawa::Matrix<const __nv_bfloat16> A,
                      tawa::Matrix<const __nv_bfloat16> B,
                      tawa::Matrix<__nv_bfloat16> C,
                      const __grid_constant__ CUtensorMap A_tensor_map,
                      const __grid_constant__ CUtensorMap B_tensor_map,
                      const __grid_constant__ CUtensorMap C_store_map,
                      const bool tma_store,
                      const tawa::rt::TileSchedule schedule,
                      const tawa::rt::SplitTail split_tail) {
  constexpr int kStages = 6;
  constexpr int kConsumers = 2;
  extern __shared__ unsigned char tawa_smem[];
  gemm_nt_narrow128_shared &smem =
      tawa::rt::shared_storage<gemm_nt_narrow128_shared>(tawa_smem);
  if (threadIdx.x == 0) {
    smem.a_b_aref.init(kConsumers);
  }
  __syncthreads();

  if (tawa::rt::warpgroup_index() == 0) {
    // Producer warpgroup: one thread issues the TMA loads of every stage.
    tawa::rt::warpgroup_release_registers<40>();
    if (threadIdx.x == 0) {
      tawa::rt::ArefCursor<kStages> a_b;
      // Tile (x, y, z) is the work of block (x, y, z) of the original launch;
      // part p computes the p-th of its narrow column parts. Whole tiles, then
      // the last partial wave, split by K where the launch found it pays
      // (tawa/runtime/split_tail.cuh). Every tile runs this K loop: counted
      // first, its trips let a launch of fewer tiles than CTAs split them all.
      int trips = 0;
      for (int k0 = 0; k0 < A.cols; k0 += 64) {
        ++trips;
      }
      const tawa::rt::SplitTailWalk<64> walk(split_tail, schedule.count());
      int k_iter = 0;
      for (tawa::rt::TileWork work = walk.first(trips); walk.valid(work);
           walk.advance(work, k_iter)) {
        const uint3 tile = schedule.tile(work.unit);
        const int part = schedule.part(work.unit);
        const int m0 = tile.y * 128, n0 = tile.x * 256;
        k_iter = 0;
        for (int k0 = 0; k0 < A.cols; k0 += 64) {
          if (k_iter++ < work.k_begin) {
            continue;
          }
          if (k_iter > work.k_end) {
            break;
          }
          gemm_nt_narrow128_shared::a_b_slot &slot = smem.a_b[a_b.stage];
          smem.a_b_aref.put(a_b, sizeof(slot.a) + sizeof(slot.b));
          tawa::rt::tma_load_2d(slot.a, &A_tensor_map,
                                smem.a_b_aref.full_barrier(a_b), k0, m0);
          tawa::rt::tma_load_2d(slot.b, &B_tensor_map,
                                smem.a_b_aref.full_barrier(a_b), k0,
                                n0 + part * 128);
          a_b.advance();
        }
      }
    }
  } else {
    // Consumer warpgroups: warpgroup 1 + c owns rows [64 c, 64 c + 64) of acc.
    tawa::rt::warpgroup_acquire_registers<232>();
    const int consumer = tawa::rt::warpgroup_index() - 1;
    tawa::rt::WgmmaAccumulator<1, 128> acc;
    // `a_b` reads the ring; `a_b_release` trails it by the one wgmma group kept
    // in flight.
    tawa::rt::ArefCursor<kStages> a_b, a_b_release;
    // The same walk as the producer's.
    // Whole tiles, then the last partial wave, split by K where the launch
    // found it pays (tawa/runtime/split_tail.cuh). Every tile runs this K loop:
    // counted first, its trips let a launch of fewer tiles than CTAs split them
    // all.
    int trips = 0;
    for (int k0 = 0; k0 < A.cols; k0 += 64) {
      ++trips;
    }
    const tawa::rt::SplitTailWalk<64> walk(split_tail, schedule.count());
    int k_iter = 0;
    for (tawa::rt::TileWork work = walk.first(trips); walk.valid(work);
         walk.advance(work, k_iter)) {
      const uint3 tile = schedule.tile(work.unit);
      const int part = schedule.part(work.unit);
      const int m0 = tile.y * 128, n0 = tile.x * 256;
      int k_steps = 0;
      k_iter = 0;
      for (int k0 = 0; k0 < A.cols; k0 += 64) {
        if (k_iter++ < work.k_begin) {
          continue;
        }
        if (k_iter > work.k_end) {
          break;
        }
        gemm_nt_narrow128_shared::a_b_slot &slot = smem.a_b[a_b.stage];
        smem.a_b_aref.get(a_b);
        tawa::rt::wgmma_nt<64>(acc, slot.a + consumer * 64 * 64, slot.b,
                               /*accumulate=*/k_steps > 0);
        tawa::rt::wgmma_wait<1>();
        if (k_steps++ > 0) {
          smem.a_b_aref.consumed(a_b_release);
          a_b_release.advance();
        }
        a_b.advance();
      }
      tawa::rt::wgmma_wait<0>();
      acc.fence();
      if (k_steps > 0) {
        smem.a_b_aref.consumed(a_b_release);
        a_b_release.advance();
      }
      if (work.kind == tawa::rt::TileWork::Piece) {
        // A piece of a split tile: its partial sums go to the workspace, for
        // the tile's head.
        tawa::rt::store_piece<kConsumers>(split_tail, work.slot, consumer, acc,
                                          /*barrier=*/1 + consumer);
        continue;
      }
      if (work.kind == tawa::rt::TileWork::Head) {
        tawa::rt::add_pieces<kConsumers>(split_tail, walk, work, consumer, acc,
                                         /*barrier=*/1 + consumer);
      }
      if (tma_store) {
        tawa::rt::store_accumulator_tma<false>(
            &C_store_map, smem.epilogue[consumer], m0 + consumer * 64,
            n0 + part * 128, 0, acc, /*zero=*/k_steps == 0,
            /*barrier=*/1 + consumer);
      } else {
        // TMA cannot address the output: the warpgroup copies the staged rows.
        tawa::rt::store_accumulator_staged(
            C, smem.epilogue[consumer], m0 + consumer * 64, n0 + part * 128,
            acc, /*zero=*/k_steps == 0, /*barrier=*/1 + consumer);
      }
    }
    // The stores must have read shared memory before the CTA ends.
    if (tma_store && tawa::rt::warpgroup_thread() == 0) {
      tawa::rt::tma_store_wait_all();
    }
  }
}

/// Launches gemm_nt_narrow128 over the tiles of `grid` (the grid of the
/// original launch, one 128 x 256 output tile per block, in 2 narrow CTA tiles
/// of 128 x 128 each): builds the tensor maps, raises the dynamic shared-memory
/// limit, and starts one CTA per SM, which walk the tiles in grouped raster
/// order. Where TMA cannot load the operands, runs the kernel as written with
/// the original `grid`, `block` and `shared`; where it cannot store C, the
/// consumers copy the staged tile row by row. Returns the first error.
inline cudaError_t gemm_nt_narrow128_launch(dim3 grid, dim3 block,
                                            size_t shared, cudaStream_t stream,
                                            tawa::Matrix<const __nv_bfloat16> A,
                                            tawa::Matrix<const __nv_bfloat16> B,
                                            tawa::Matrix<__nv_bfloat16> C) {
  CUtensorMap A_tensor_map, B_tensor_map;
  // Operands TMA cannot read in place (an `ld` that is not a multiple of 16
  // bytes, say) are copied to aligned buffers on the stream, freed after the
  // launch (tawa/runtime/operand_copy.cuh).
  tawa::rt::OperandCopies copies(stream);
  auto A_aligned = A;
  auto B_aligned = B;
  cudaError_t maps = copies.aligned(A, &A_aligned);
  if (maps == cudaSuccess)
    maps = copies.aligned(B, &B_aligned);
  if (maps == cudaSuccess)
    maps = tawa::rt::make_tensor_map(&A_tensor_map, A_aligned, 128, 64);
  if (maps == cudaSuccess)
    maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 128, 64);
  if (maps != cudaSuccess) {
    // TMA cannot address this data: run the kernel as written.
    static bool noted = false;
    tawa::rt::note_fallback("gemm_nt", maps, noted);
    gemm_nt_reference<<<grid, block, shared, stream>>>(A, B, C);
    return cudaPeekAtLastError();
  }
  // Where TMA cannot address C (an `ld` that is not a multiple of 16 bytes,
  // say), the consumers copy the staged tile to it row by row.
  CUtensorMap C_store_map{};
  const bool tma_store =
      tawa::rt::make_tensor_map(&C_store_map, C, 64, 64) == cudaSuccess;
  const tawa::rt::TileSchedule schedule(grid, /*group=*/8, /*along_y=*/true,
                                        /*cluster=*/1, /*merge_x=*/1,
                                        /*merge_y=*/1, /*parts=*/2);
  int ctas = 0;
  if (cudaError_t e = tawa::rt::persistent_ctas(
          schedule.count(), schedule.cluster, &ctas, /*fill=*/true);
      e != cudaSuccess)
    return e;
  constexpr size_t shared_bytes =
      tawa::rt::shared_bytes<gemm_nt_narrow128_shared>();
  if (cudaError_t e = cudaFuncSetAttribute(
          gemm_nt_narrow128, cudaFuncAttributeMaxDynamicSharedMemorySize,
          shared_bytes);
      e != cudaSuccess)
    return e;
  tawa::rt::SplitTail split_tail;
  if (cudaError_t e =
          tawa::rt::split_tail_plan(ctas, 2, 128 * 128, stream, &split_tail);
      e != cudaSuccess)
    return e;
  gemm_nt_narrow128<<<ctas, 384, shared_bytes, stream>>>(
      A, B, C, A_tensor_map, B_tensor_map, C_store_map, tma_store, schedule,
      split_tail);
  return cudaPeekAtLastError();
}

/// Launches gemm_nt over the tiles of `grid` (the grid of the original launch,
/// one 128 x 256 output tile per block): builds the tensor maps, raises the
/// dynamic shared-memory limit, and starts one CTA per SM, which walk the tiles
/// in grouped raster order. Where TMA cannot load the operands, runs the kernel
/// as written with the original `grid`, `block` and `shared`; where it cannot
/// store C, the consumers copy the staged tile row by row. Returns the first
/// error.
inline cudaError_t gemm_nt_launch(dim3 grid, dim3 block, size_t shared,
                                  cudaStream_t stream,
                                  tawa::Matrix<const __nv_bfloat16> A,
                                  tawa::Matrix<const __nv_bfloat16> B,
                                  tawa::Matrix<__nv_bfloat16> C) {
  // Where the wide tiles fill at most half a wave of the SMs, they run as
  // narrow CTA tiles: the narrowest kernel whose tiles fill one wave, else the
  // widest (tawa/TileShape.h).
  int narrow = -1;
  if (cudaError_t e =
          tawa::rt::choose_narrow(grid, 1, 1, 256, {64, 128}, &narrow);
      e != cudaSuccess)
    return e;
  if (narrow == 0) {
    return gemm_nt_narrow64_launch(grid, block, shared, stream, A, B, C);
  }
  if (narrow == 1) {
    return gemm_nt_narrow128_launch(grid, block, shared, stream, A, B, C);
  }
  CUtensorMap A_tensor_map, B_tensor_map;
  // Operands TMA cannot read in place (an `ld` that is not a multiple of 16
  // bytes, say) are copied to aligned buffers on the stream, freed after the
  // launch (tawa/runtime/operand_copy.cuh).
  tawa::rt::OperandCopies copies(stream);
  auto A_aligned = A;
  auto B_aligned = B;
  cudaError_t maps = copies.aligned(A, &A_aligned);
  if (maps == cudaSuccess)
    maps = copies.aligned(B, &B_aligned);
  if (maps == cudaSuccess)
    maps = tawa::rt::make_tensor_map(&A_tensor_map, A_aligned, 128, 64);
  if (maps == cudaSuccess)
    maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 256, 64);
  if (maps != cudaSuccess) {
    // TMA cannot address this data: run the kernel as written.
    static bool noted = false;
    tawa::rt::note_fallback("gemm_nt", maps, noted);
    gemm_nt_reference<<<grid, block, shared, stream>>>(A, B, C);
    return cudaPeekAtLastError();
  }
  // Where TMA cannot address C (an `ld` that is not a multiple of 16 bytes,
  // say), the consumers copy the staged tile to it row by row.
  CUtensorMap C_store_map{};
  const bool tma_store =
      tawa::rt::make_tensor_map(&C_store_map, C, 64, 64) == cudaSuccess;
  const tawa::rt::TileSchedule schedule(grid, /*group=*/8, /*along_y=*/true);
  int ctas = 0;
  if (cudaError_t e = tawa::rt::persistent_ctas(
          schedule.count(), schedule.cluster, &ctas, /*fill=*/true);
      e != cudaSuccess)
    return e;
  constexpr size_t shared_bytes = tawa::rt::shared_bytes<gemm_nt_shared>();
  if (cudaError_t e = cudaFuncSetAttribute(
          gemm_nt, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
      e != cudaSuccess)
    return e;
  tawa::rt::SplitTail split_tail;
  if (cudaError_t e =
          tawa::rt::split_tail_plan(ctas, 2, 128 * 256, stream, &split_tail);
      e != cudaSuccess)
    return e;
  gemm_nt<<<ctas, 384, shared_bytes, stream>>>(A, B, C, A_tensor_map,
                                               B_tensor_map, C_store_map,
                                               tma_store, schedule, split_tail);
  return cudaPeekAtLastError();
}

cudaError_t gemm(tawa::Matrix<const __nv_bfloat16> A,
                 tawa::Matrix<const __nv_bfloat16> B,
                 tawa::Matrix<__nv_bfloat16> C, cudaStream_t stream) {
  if (A.cols != B.cols || A.rows != C.rows || B.rows != C.cols)
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  dim3 grid(tawa::ceil_div(C.cols, 256), tawa::ceil_div(C.rows, 128));
  gemm_nt_launch(grid, 128, 0, stream, A, B, C);
  return cudaGetLastError();
}
