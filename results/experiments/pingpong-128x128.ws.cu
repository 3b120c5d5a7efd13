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
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  tawa::Accumulator<float, 128, 128> acc;
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<128, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

/// Shared memory of gemm_nt: aref `a_b`, 5 stages of {a: 128 x 64, b: 128 x 64}
/// (32768 bytes each).
struct gemm_nt_shared {
  struct a_b_slot {
    alignas(1024) __nv_bfloat16 a[128 * 64];
    alignas(1024) __nv_bfloat16 b[128 * 64];
  };
  a_b_slot a_b[5];
  tawa::rt::Aref<5> a_b_aref;
  tawa::rt::EpilogueStaging<__nv_bfloat16, 128, 2> epilogue[2];
};

/// gemm_nt, warp-specialized by tawa-rewrite from `#pragma tawa tile` at
/// pp.cu:10: warpgroup 0 produces aref `a_b` with TMA; warpgroups 1-1 consume
/// it with wgmma m64n128k16, 128 rows of the 128 x 128 accumulator each.
__global__ void __launch_bounds__(384, 1)
    gemm_nt(tawa::Matrix<const __nv_bfloat16> A,
            tawa::Matrix<const __nv_bfloat16> B, tawa::Matrix<__nv_bfloat16> C,
            const __grid_constant__ CUtensorMap A_tensor_map,
            const __grid_constant__ CUtensorMap B_tensor_map,
            const __grid_constant__ CUtensorMap C_store_map,
            const tawa::rt::TileSchedule schedule) {
  constexpr int kStages = 5;
  constexpr int kConsumers = 1;
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
      for (int t = blockIdx.x; t < schedule.count(); t += gridDim.x) {
        const uint3 tile = schedule.tile(t);
        const int m0 = tile.y * 128, n0 = tile.x * 128;
        for (int k0 = 0; k0 < A.cols; k0 += 64) {
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
    // Consumer warpgroups: warpgroup 1 + c owns rows [128 c, 128 c + 128) of
    // acc.
    tawa::rt::warpgroup_acquire_registers<232>();
    const int consumer = tawa::rt::warpgroup_index() - 1;
    tawa::rt::WgmmaAccumulator<2, 128> acc;
    // `a_b` reads the ring; `a_b_release` trails it by the one wgmma group kept
    // in flight.
    tawa::rt::ArefCursor<kStages> a_b, a_b_release;
    // The same walk as the producer's; the consumers take turns by tile.
    int turn = 0;
    for (int t = blockIdx.x; t < schedule.count(); t += gridDim.x, ++turn) {
      if (turn % 2 != consumer) {
        for (int k0 = 0; k0 < A.cols; k0 += 64) {
          a_b.advance();
          a_b_release.advance();
        }
        continue;
      }
      const uint3 tile = schedule.tile(t);
      const int m0 = tile.y * 128, n0 = tile.x * 128;
      // Main loops take turns: wait for the other consumer's to end.
      if (turn > 0)
        asm volatile("bar.sync %0, 256;\n" ::"r"(3 + consumer) : "memory");
      int k_steps = 0;
      for (int k0 = 0; k0 < A.cols; k0 += 64) {
        gemm_nt_shared::a_b_slot &slot = smem.a_b[a_b.stage];
        smem.a_b_aref.get(a_b);
        tawa::rt::wgmma_nt<64>(acc, slot.a, slot.b,
                               /*accumulate=*/k_steps > 0);
        tawa::rt::wgmma_wait<1>();
        if (k_steps++ > 0) {
          smem.a_b_aref.consumed(a_b_release);
          a_b_release.advance();
        }
        a_b.advance();
      }
      if (t + gridDim.x < schedule.count())
        asm volatile("bar.arrive %0, 256;\n" ::"r"(4 - consumer) : "memory");
      tawa::rt::wgmma_wait<0>();
      acc.fence();
      if (k_steps > 0) {
        smem.a_b_aref.consumed(a_b_release);
        a_b_release.advance();
      }
      tawa::rt::store_accumulator_tma<false>(
          &C_store_map, smem.epilogue[consumer], m0, n0, 0,
          acc, /*zero=*/k_steps == 0, /*barrier=*/1 + consumer);
    }
    // The stores must have read shared memory before the CTA ends.
    if (tawa::rt::warpgroup_thread() == 0) {
      tawa::rt::tma_store_wait_all();
    }
  }
}

/// Launches gemm_nt over the tiles of `grid` (the grid of the original launch,
/// one 128 x 128 output tile per block): builds the tensor maps, raises the
/// dynamic shared-memory limit, and starts one CTA per SM, which walk the tiles
/// in grouped raster order. Where TMA cannot address the data, runs the kernel
/// as written with the original `grid`, `block` and `shared`. Returns the first
/// error.
inline cudaError_t gemm_nt_launch(dim3 grid, dim3 block, size_t shared,
                                  cudaStream_t stream,
                                  tawa::Matrix<const __nv_bfloat16> A,
                                  tawa::Matrix<const __nv_bfloat16> B,
                                  tawa::Matrix<__nv_bfloat16> C) {
  CUtensorMap A_tensor_map, B_tensor_map, C_store_map;
  cudaError_t maps = tawa::rt::make_tensor_map(&A_tensor_map, A, 128, 64);
  if (maps == cudaSuccess)
    maps = tawa::rt::make_tensor_map(&B_tensor_map, B, 128, 64);
  if (maps == cudaSuccess)
    maps = tawa::rt::make_tensor_map(&C_store_map, C, 128, 64);
  if (maps != cudaSuccess) {
    // TMA cannot address this data: run the kernel as written.
    static bool noted = false;
    tawa::rt::note_fallback("gemm_nt", maps, noted);
    gemm_nt_reference<<<grid, block, shared, stream>>>(A, B, C);
    return cudaPeekAtLastError();
  }
  const tawa::rt::TileSchedule schedule{grid, /*group=*/8, /*along_y=*/true};
  int ctas = 0;
  if (cudaError_t e =
          tawa::rt::persistent_ctas(schedule.count(), schedule.cluster, &ctas);
      e != cudaSuccess)
    return e;
  constexpr size_t shared_bytes = tawa::rt::shared_bytes<gemm_nt_shared>();
  if (cudaError_t e = cudaFuncSetAttribute(
          gemm_nt, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
      e != cudaSuccess)
    return e;
  gemm_nt<<<ctas, 384, shared_bytes, stream>>>(
      A, B, C, A_tensor_map, B_tensor_map, C_store_map, schedule);
  return cudaPeekAtLastError();
}

cudaError_t gemm(tawa::Matrix<const __nv_bfloat16> A,
                 tawa::Matrix<const __nv_bfloat16> B,
                 tawa::Matrix<__nv_bfloat16> C, cudaStream_t stream) {
  if (A.cols != B.cols || A.rows != C.rows || B.rows != C.cols)
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  dim3 grid(tawa::ceil_div(C.cols, 128), tawa::ceil_div(C.rows, 128));
  gemm_nt_launch(grid, 128, 0, stream, A, B, C);
  return cudaGetLastError();
}
