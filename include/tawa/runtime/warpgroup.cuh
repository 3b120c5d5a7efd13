//===- tawa/runtime/warpgroup.cuh - warpgroup roles and registers ---------===//
//
// A warpgroup is 4 consecutive warps (128 threads) whose first warp index is a
// multiple of 4 (PTX ISA, "Warpgroup"). Rewritten kernels give each warpgroup
// one role: warpgroup 0 is the producer, the others are consumers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "arch.cuh"

namespace tawa::rt {

/// Threads in a warpgroup.
inline constexpr int kWarpgroupThreads = 128;

/// Index of the calling thread's warpgroup in a 1-D block, uniform across the
/// warpgroup (read through a shuffle so the compiler knows it is warp-uniform).
__device__ __forceinline__ int warpgroup_index() {
  return __shfl_sync(0xffffffffu,
                     static_cast<int>(threadIdx.x) / kWarpgroupThreads, 0);
}

/// Index of the calling thread inside its warpgroup, 0..127.
__device__ __forceinline__ int warpgroup_thread() {
  return static_cast<int>(threadIdx.x) % kWarpgroupThreads;
}

/// Waits at named barrier `id` (1..15; 0 is __syncthreads) for the `threads`
/// threads that use it (PTX ISA, bar.sync).
__device__ __forceinline__ void named_barrier_sync(int id, int threads) {
#if TAWA_DEVICE_PASS
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
#endif
}

/// Arrives at named barrier `id` without waiting (PTX ISA, bar.arrive): the
/// `threads` of the barrier are those that arrive plus those that wait.
__device__ __forceinline__ void named_barrier_arrive(int id, int threads) {
#if TAWA_DEVICE_PASS
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
#endif
}

/// Named barriers 3 and 4 pass the turn between the two consumer
/// warpgroups of schedule(pingpong); 1 and 2 are their epilogues'.
inline constexpr int kTurnBarrier = 3;

/// schedule(pingpong): consumer warpgroup `consumer` (0 or 1) waits until
/// the other has taken the last slot of its tile. The main loops run in
/// turn, so a consumer waits on an aref barrier at most one phase behind
/// (an mbarrier parity wait cannot tell phases two apart), and one's
/// epilogue runs while the other's main loop has the tensor cores.
__device__ __forceinline__ void wait_turn(int consumer) {
  named_barrier_sync(kTurnBarrier + consumer, 2 * kWarpgroupThreads);
}

/// schedule(pingpong): consumer warpgroup `consumer` lets the other start its
/// main loop. Each pass_turn must meet one wait_turn of the other.
__device__ __forceinline__ void pass_turn(int consumer) {
  named_barrier_arrive(kTurnBarrier + 1 - consumer, 2 * kWarpgroupThreads);
}

/// Inter-warpgroup ping-pong of the attention consumers (FlashAttention-3,
/// arXiv 2407.08608, section 3.1): the `Consumers` warpgroups issue their
/// wgmma in turn, warpgroup c after c - 1, so one's softmax runs while the
/// next one's matrix products have the tensor cores. Turn c is named
/// barrier `First + c`, of 2 x 128 threads: warpgroup c waits there (`wait`)
/// and its predecessor arrives (`pass`). Warpgroup Consumers - 1 arrives
/// once at the start so that warpgroup 0 goes first, and warpgroup 0 waits
/// once at the end (`finish`) for that arrival's counterpart; in between,
/// every warpgroup calls wait and pass alternately, equally often.
template <int Consumers, int First> struct WarpgroupTurns {
  static_assert(Consumers >= 2 && First >= 1 && First + Consumers <= 16,
                "named barriers 1..15");
  int consumer;
  __device__ __forceinline__ explicit WarpgroupTurns(int c) : consumer(c) {
    if (c == Consumers - 1)
      named_barrier_arrive(First, 2 * kWarpgroupThreads);
  }
  /// Waits until the previous warpgroup has issued its products.
  __device__ __forceinline__ void wait() const {
    named_barrier_sync(First + consumer, 2 * kWarpgroupThreads);
  }
  /// Lets the next warpgroup issue its products.
  __device__ __forceinline__ void pass() const {
    named_barrier_arrive(First + (consumer + 1) % Consumers,
                         2 * kWarpgroupThreads);
  }
  /// Takes the last turn that the start left open (warpgroup 0).
  __device__ __forceinline__ void finish() const {
    if (consumer == 0)
      wait();
  }
};

/// Lowers the per-thread register limit of the calling warpgroup to `Regs`
/// (`setmaxnreg.dec`, PTX ISA 9.7.17.1). 24 <= Regs <= 256, multiple of 8.
/// Takes effect only in a kernel with a register cap at entry
/// (`__launch_bounds__(threads, 1)`), else ptxas drops it (warning C7508).
template <int Regs>
__device__ __forceinline__ void warpgroup_release_registers() {
  static_assert(Regs >= 24 && Regs <= 256 && Regs % 8 == 0,
                "setmaxnreg: 24..256, multiple of 8");
#if TAWA_DEVICE_PASS
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Regs));
#endif
}

/// Raises the per-thread register limit of the calling warpgroup to `Regs`
/// (`setmaxnreg.inc`); blocks until the registers released by other
/// warpgroups are available, so the sum over the block must fit 65,536.
template <int Regs>
__device__ __forceinline__ void warpgroup_acquire_registers() {
  static_assert(Regs >= 24 && Regs <= 256 && Regs % 8 == 0,
                "setmaxnreg: 24..256, multiple of 8");
#if TAWA_DEVICE_PASS
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Regs));
#endif
}

} // namespace tawa::rt
