// The emitted kernel: storage of the aref ring, the role split with
// setmaxnreg, the producer's TMA loop, the consumers' wgmma loop and
// epilogue, the launcher, and the launch site calling it.
// RUN: %tawa-rewrite %s -- %cuda-stub | FileCheck %s --match-full-lines
#include <tawa/tile.h>

// C[M,N] = A[M,K] * B[N,K]^T
__global__ void gemm_nt(tawa::Matrix<const __nv_bfloat16> A, tawa::Matrix<const __nv_bfloat16> B,
                        tawa::Matrix<__nv_bfloat16> C) {
  // Block coordinates of the output tile.
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile stages(4) consumers(2)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

void run(tawa::Matrix<const __nv_bfloat16> A, tawa::Matrix<const __nv_bfloat16> B,
         tawa::Matrix<__nv_bfloat16> C) {
  gemm_nt<<<dim3(C.cols / 256, C.rows / 128), 128>>>(A, B, C);
}

// CHECK: #include <tawa/tile.h>
// CHECK-NEXT: #include <tawa/runtime.cuh>
// CHECK: /// gemm_nt as written (the portable tile code of tawa/tile.h): gemm_nt_launch
// CHECK-NEXT: /// runs it where TMA cannot address the data (unaligned addresses or leading
// CHECK-NEXT: /// dimensions).
// CHECK-NEXT: __global__ void gemm_nt_reference(tawa::Matrix<const __nv_bfloat16> A,
// CHECK:   tawa::Accumulator<float, 128, 256> acc;
// CHECK-NEXT:   for (int k0 = 0; k0 < A.cols; k0 += 64) {
// CHECK: struct gemm_nt_shared {
// CHECK-NEXT:   struct a_b_slot {
// CHECK-NEXT:     alignas(1024) __nv_bfloat16 a[128 * 64];
// CHECK-NEXT:     alignas(1024) __nv_bfloat16 b[256 * 64];
// CHECK-NEXT:   };
// CHECK-NEXT:   a_b_slot a_b[4];
// CHECK-NEXT:   tawa::rt::Aref<4> a_b_aref;
// CHECK-NEXT:   tawa::rt::EpilogueStaging<__nv_bfloat16, 64, 2> epilogue[2];
// CHECK-NEXT: };
// CHECK: __global__ void __launch_bounds__(384, 1)
// CHECK-NEXT:     gemm_nt(tawa::Matrix<const __nv_bfloat16> A,
// CHECK-NEXT:             tawa::Matrix<const __nv_bfloat16> B, tawa::Matrix<__nv_bfloat16> C,
// CHECK-NEXT:             const __grid_constant__ CUtensorMap A_tensor_map,
// CHECK-NEXT:             const __grid_constant__ tawa::rt::EdgeMaps A_tensor_map_edge,
// CHECK-NEXT:             const __grid_constant__ CUtensorMap B_tensor_map,
// CHECK-NEXT:             const __grid_constant__ CUtensorMap C_store_map,
// CHECK-NEXT:             const bool tma_store, const tawa::rt::TileSchedule schedule,
// CHECK-NEXT:             const tawa::rt::SplitTail split_tail) {
// CHECK-NEXT:   constexpr int kStages = 4;
// CHECK-NEXT:   constexpr int kConsumers = 2;
// CHECK-NEXT:   extern __shared__ unsigned char tawa_smem[];
// CHECK-NEXT:   gemm_nt_shared &smem = tawa::rt::shared_storage<gemm_nt_shared>(tawa_smem);
// CHECK-NEXT:   if (threadIdx.x == 0) {
// CHECK-NEXT:     // The tensor maps reach the cache TMA reads them from while the barriers
// CHECK-NEXT:     // are set up.
// CHECK-NEXT:     tawa::rt::prefetch_tensor_map(&A_tensor_map);
// CHECK-NEXT:     tawa::rt::prefetch_tensor_map(&B_tensor_map);
// CHECK-NEXT:     if (tma_store)
// CHECK-NEXT:       tawa::rt::prefetch_tensor_map(&C_store_map);
// CHECK-NEXT:     smem.a_b_aref.init(kConsumers);
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-EMPTY:
// CHECK-NEXT:   if (tawa::rt::warpgroup_index() == 0) {
// CHECK-NEXT:     // Producer warpgroup: one thread issues the TMA loads of every stage.
// CHECK-NEXT:     tawa::rt::warpgroup_release_registers<40>();
// CHECK-NEXT:     if (threadIdx.x == 0) {
// CHECK-NEXT:       tawa::rt::ArefCursor<kStages> a_b;
// CHECK-NEXT:       // Tile (x, y, z) is the work of block (x, y, z) of the original launch.
// CHECK-NEXT:       // Whole tiles, then the last partial wave, split by K where the launch
// CHECK-NEXT:       // found it pays (tawa/runtime/split_tail.cuh). Every tile runs this K
// CHECK-NEXT:       // loop: counted first, its trips let a launch of fewer tiles than CTAs
// CHECK-NEXT:       // split them all.
// CHECK-NEXT:       int trips = 0;
// CHECK-NEXT:       for (int k0 = 0; k0 < A.cols; k0 += 64) {
// CHECK-NEXT:         ++trips;
// CHECK-NEXT:       }
// CHECK-NEXT:       const tawa::rt::SplitTailWalk<64> walk(split_tail, schedule.count());
// CHECK-NEXT:       int k_iter = 0;
// CHECK-NEXT:       for (tawa::rt::TileWork work = walk.first(trips); walk.valid(work);
// CHECK-NEXT:            walk.advance(work, k_iter)) {
// CHECK-NEXT:         const uint3 tile = schedule.tile(work.unit);
// CHECK-NEXT:         // Block coordinates of the output tile.
// CHECK-NEXT:         const int m0 = tile.y * 128, n0 = tile.x * 256;
// CHECK-NEXT:         k_iter = 0;
// CHECK-NEXT:         for (int k0 = 0; k0 < A.cols; k0 += 64) {
// CHECK-NEXT:           if (k_iter++ < work.k_begin) {
// CHECK-NEXT:             continue;
// CHECK-NEXT:           }
// CHECK-NEXT:           if (k_iter > work.k_end) {
// CHECK-NEXT:             break;
// CHECK-NEXT:           }
// CHECK-NEXT:           gemm_nt_shared::a_b_slot &slot = smem.a_b[a_b.stage];
// CHECK-NEXT:           smem.a_b_aref.put(a_b,
// CHECK-NEXT:                             tawa::rt::edge_bytes<128>(A_tensor_map_edge, m0) +
// CHECK-NEXT:                                 sizeof(slot.b));
// CHECK-NEXT:           tawa::rt::tma_load_rows<128, false>(
// CHECK-NEXT:               slot.a, &A_tensor_map, A_tensor_map_edge,
// CHECK-NEXT:               smem.a_b_aref.full_barrier(a_b), k0, m0, 0);
// CHECK-NEXT:           tawa::rt::tma_load_2d(slot.b, &B_tensor_map,
// CHECK-NEXT:                                 smem.a_b_aref.full_barrier(a_b), k0, n0);
// CHECK-NEXT:           a_b.advance();
// CHECK-NEXT:         }
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     // Consumer warpgroups: warpgroup 1 + c owns rows [64 c, 64 c + 64) of acc.
// CHECK-NEXT:     tawa::rt::warpgroup_acquire_registers<232>();
// CHECK-NEXT:     const int consumer = tawa::rt::warpgroup_index() - 1;
// CHECK-NEXT:     tawa::rt::WgmmaAccumulator<1, 256> acc;
// CHECK-NEXT:     // `a_b` reads the ring; `a_b_release` trails it by the one wgmma group kept
// CHECK-NEXT:     // in flight.
// CHECK-NEXT:     tawa::rt::ArefCursor<kStages> a_b, a_b_release;
// CHECK-NEXT:     // The same walk as the producer's.
// CHECK-NEXT:     // Whole tiles, then the last partial wave, split by K where the launch
// CHECK-NEXT:     // found it pays (tawa/runtime/split_tail.cuh). Every tile runs this K loop:
// CHECK-NEXT:     // counted first, its trips let a launch of fewer tiles than CTAs split them
// CHECK-NEXT:     // all.
// CHECK-NEXT:     int trips = 0;
// CHECK-NEXT:     for (int k0 = 0; k0 < A.cols; k0 += 64) {
// CHECK-NEXT:       ++trips;
// CHECK-NEXT:     }
// CHECK-NEXT:     const tawa::rt::SplitTailWalk<64> walk(split_tail, schedule.count());
// CHECK-NEXT:     int k_iter = 0;
// CHECK-NEXT:     for (tawa::rt::TileWork work = walk.first(trips); walk.valid(work);
// CHECK-NEXT:          walk.advance(work, k_iter)) {
// CHECK-NEXT:       const uint3 tile = schedule.tile(work.unit);
// CHECK-NEXT:       // Block coordinates of the output tile.
// CHECK-NEXT:       const int m0 = tile.y * 128, n0 = tile.x * 256;
// CHECK-NEXT:       // This warpgroup's rows of the tile: none of them stored where they start
// CHECK-NEXT:       // past C's last row.
// CHECK-NEXT:       const bool idle = m0 + consumer * 64 >= C.rows;
// CHECK-NEXT:       int k_steps = 0;
// CHECK-NEXT:       k_iter = 0;
// CHECK-NEXT:       for (int k0 = 0; k0 < A.cols; k0 += 64) {
// CHECK-NEXT:         if (k_iter++ < work.k_begin) {
// CHECK-NEXT:           continue;
// CHECK-NEXT:         }
// CHECK-NEXT:         if (k_iter > work.k_end) {
// CHECK-NEXT:           break;
// CHECK-NEXT:         }
// CHECK-NEXT:         gemm_nt_shared::a_b_slot &slot = smem.a_b[a_b.stage];
// CHECK-NEXT:         smem.a_b_aref.get(a_b);
// CHECK-NEXT:         if (!idle) {
// CHECK-NEXT:           tawa::rt::wgmma_nt<64>(acc, slot.a + consumer * 64 * 64, slot.b,
// CHECK-NEXT:                                  /*accumulate=*/k_steps > 0);
// CHECK-NEXT:         }
// CHECK-NEXT:         tawa::rt::wgmma_wait<1>();
// CHECK-NEXT:         if (k_steps++ > 0) {
// CHECK-NEXT:           smem.a_b_aref.consumed(a_b_release);
// CHECK-NEXT:           a_b_release.advance();
// CHECK-NEXT:         }
// CHECK-NEXT:         a_b.advance();
// CHECK-NEXT:       }
// CHECK-NEXT:       tawa::rt::wgmma_wait<0>();
// CHECK-NEXT:       acc.fence();
// CHECK-NEXT:       if (k_steps > 0) {
// CHECK-NEXT:         smem.a_b_aref.consumed(a_b_release);
// CHECK-NEXT:         a_b_release.advance();
// CHECK-NEXT:       }
// CHECK-NEXT:       if (idle) {
// CHECK-NEXT:         continue;
// CHECK-NEXT:       }
// CHECK-NEXT:       if (work.kind == tawa::rt::TileWork::Piece) {
// CHECK-NEXT:         // A piece of a split tile: its partial sums go to the workspace, for
// CHECK-NEXT:         // the tile's head.
// CHECK-NEXT:         tawa::rt::store_piece<kConsumers>(split_tail, work.slot, consumer, acc,
// CHECK-NEXT:                                           /*barrier=*/1 + consumer);
// CHECK-NEXT:         continue;
// CHECK-NEXT:       }
// CHECK-NEXT:       if (work.kind == tawa::rt::TileWork::Head) {
// CHECK-NEXT:         tawa::rt::add_pieces<kConsumers>(split_tail, walk, work, consumer, acc,
// CHECK-NEXT:                                          /*barrier=*/1 + consumer);
// CHECK-NEXT:       }
// CHECK-NEXT:       if (tma_store) {
// CHECK-NEXT:         tawa::rt::store_accumulator_tma<false>(
// CHECK-NEXT:             &C_store_map, smem.epilogue[consumer], m0 + consumer * 64, n0, 0,
// CHECK-NEXT:             acc, /*zero=*/k_steps == 0, /*barrier=*/1 + consumer);
// CHECK-NEXT:       } else {
// CHECK-NEXT:         // TMA cannot address the output: the warpgroup copies the staged rows.
// CHECK-NEXT:         tawa::rt::store_accumulator_staged(
// CHECK-NEXT:             C, smem.epilogue[consumer], m0 + consumer * 64, n0, acc,
// CHECK-NEXT:             /*zero=*/k_steps == 0, /*barrier=*/1 + consumer);
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     // The stores must have read shared memory before the CTA ends.
// CHECK-NEXT:     if (tma_store && tawa::rt::warpgroup_thread() == 0) {
// CHECK-NEXT:       tawa::rt::tma_store_wait_all();
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK:      inline cudaError_t gemm_nt_launch(dim3 grid, dim3 block, size_t shared,
// CHECK-NEXT:                                   cudaStream_t stream,
// CHECK:   CUtensorMap A_tensor_map, B_tensor_map;
// CHECK-NEXT:   // Boxes that reach past an operand's last row load only the rows before it
// CHECK-NEXT:   // (tawa/runtime/edge_boxes.cuh).
// CHECK-NEXT:   tawa::rt::EdgeMaps A_tensor_map_edge;
// CHECK-NEXT:   // Operands TMA cannot read in place (an `ld` that is not a multiple of 16
// CHECK-NEXT:   // bytes, say) are copied to aligned buffers on the stream, freed after the
// CHECK-NEXT:   // launch (tawa/runtime/operand_copy.cuh).
// CHECK-NEXT:   tawa::rt::OperandCopies copies(stream);
// CHECK-NEXT:   // So are those whose rows are an odd number of 16 bytes apart, which TMA
// CHECK-NEXT:   // reads slowly, where the launch is large enough for that to pay.
// CHECK-NEXT:   copies.pad_odd_pitch = tawa::rt::odd_pitch_copy_pays(C.rows, C.cols);
// CHECK-NEXT:   auto A_aligned = A;
// CHECK-NEXT:   auto B_aligned = B;
// CHECK-NEXT:   cudaError_t maps = copies.aligned(A, &A_aligned);
// CHECK-NEXT:   if (maps == cudaSuccess)
// CHECK-NEXT:     maps = copies.aligned(B, &B_aligned);
// CHECK-NEXT:   if (maps == cudaSuccess)
// CHECK-NEXT:     maps = tawa::rt::make_tensor_map(&A_tensor_map, A_aligned, 128, 64);
// CHECK-NEXT:   if (maps == cudaSuccess)
// CHECK-NEXT:     maps = tawa::rt::make_edge_maps(&A_tensor_map_edge, A_aligned, 128, 64,
// CHECK-NEXT:                                     /*stored=*/C.rows);
// CHECK-NEXT:   if (maps == cudaSuccess)
// CHECK-NEXT:     maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 256, 64);
// CHECK-NEXT:   if (maps != cudaSuccess) {
// CHECK-NEXT:     // TMA cannot address this data: run the kernel as written.
// CHECK-NEXT:     static bool noted = false;
// CHECK-NEXT:     tawa::rt::note_fallback("gemm_nt", maps, noted);
// CHECK-NEXT:     gemm_nt_reference<<<grid, block, shared, stream>>>(A, B, C);
// CHECK-NEXT:     return cudaPeekAtLastError();
// CHECK-NEXT:   }
// CHECK-NEXT:   // Where TMA cannot address C (an `ld` that is not a multiple of 16 bytes,
// CHECK-NEXT:   // say), the consumers copy the staged tile to it row by row.
// CHECK-NEXT:   CUtensorMap C_store_map{};
// CHECK-NEXT:   const bool tma_store =
// CHECK-NEXT:       tawa::rt::make_tensor_map(&C_store_map, C, 64, 64) == cudaSuccess;
// CHECK-NEXT:   const tawa::rt::TileSchedule schedule(grid, /*group=*/8, /*along_y=*/true);
// CHECK-NEXT:   int ctas = 0;
// CHECK-NEXT:   if (cudaError_t e = tawa::rt::persistent_ctas(
// CHECK-NEXT:           schedule.count(), schedule.cluster, &ctas, /*fill=*/true);
// CHECK:   tawa::rt::SplitTail split_tail;
// CHECK-NEXT:   if (cudaError_t e =
// CHECK-NEXT:           tawa::rt::split_tail_plan(ctas, 2, 128 * 256, stream, &split_tail);
// CHECK-NEXT:       e != cudaSuccess)
// CHECK-NEXT:     return e;
// CHECK:   gemm_nt<<<ctas, 384, shared_bytes, stream>>>(
// CHECK-NEXT:       A, B, C, A_tensor_map, A_tensor_map_edge, B_tensor_map, C_store_map,
// CHECK-NEXT:       tma_store, schedule, split_tail);
// CHECK:   gemm_nt_launch(dim3(C.cols / 256, C.rows / 128), 128, 0, 0, A, B, C);
