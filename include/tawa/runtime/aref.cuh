//===- tawa/runtime/aref.cuh - asynchronous references over mbarriers -----===//
//
// An aref (Tawa, arXiv 2510.14719, section 4) is a ring of `Stages` slots
// between one producer and the consumer warpgroups. Each slot has two
// mbarriers (PTX ISA 9.7.13.15):
//   full[s]   arrival count 1: the producer's arrive.expect_tx adds the slot's
//             byte count and each TMA copy's completion subtracts its bytes;
//   empty[s]  arrival count = consumer warpgroups: each arrives once it has
//             finished reading the slot.
// put = wait empty, arm full, issue copies; get = wait full; consumed = arrive
// on empty. A slot that holds several K steps is filled with acquire (wait
// empty), then per step expect (add the step's bytes) and its copies, then
// commit (arrive once the slot's last step is issued). The stage advances
// modulo Stages and the phase bit flips at each wrap. The producer waits on
// `empty` with the opposite parity, so its first pass over fresh barriers does
// not block.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "arch.cuh"
#include "cluster.cuh"
#include "warpgroup.cuh"

namespace tawa::rt {

/// Position in an aref ring: slot index and the parity of its current phase.
template <int Stages> struct ArefCursor {
  int stage = 0;
  uint32_t phase = 0;
  __device__ __forceinline__ void advance() {
    if (++stage == Stages) {
      stage = 0;
      phase ^= 1u;
    }
  }
};

__device__ __forceinline__ void mbarrier_init(uint64_t *bar,
                                              uint32_t arrivals) {
#if TAWA_DEVICE_PASS
  asm volatile(
      "mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_addr(bar)),
      "r"(arrivals));
#endif
}

/// Waits until the phase of `bar` with parity `parity` has completed.
/// try_wait may return false spuriously, hence the loop.
__device__ __forceinline__ void mbarrier_wait(uint64_t *bar, uint32_t parity) {
#if TAWA_DEVICE_PASS
  uint32_t done;
  do {
    asm volatile("{\n .reg .pred p;\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done)
                 : "r"(smem_addr(bar)), "r"(parity)
                 : "memory");
  } while (!done);
#endif
}

__device__ __forceinline__ void mbarrier_arrive(uint64_t *bar) {
#if TAWA_DEVICE_PASS
  asm volatile(
      "mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_addr(bar))
      : "memory");
#endif
}

/// Arrives on `bar` and adds `bytes` to the transaction count it waits for.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint64_t *bar,
                                                          uint32_t bytes) {
#if TAWA_DEVICE_PASS
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(
                   smem_addr(bar)),
               "r"(bytes)
               : "memory");
#endif
}

/// Adds `bytes` to the transaction count of the current phase of `bar`
/// without arriving (PTX ISA 9.7.13.15, mbarrier.expect_tx).
__device__ __forceinline__ void mbarrier_expect_tx(uint64_t *bar,
                                                   uint32_t bytes) {
#if TAWA_DEVICE_PASS
  asm volatile(
      "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;\n" ::"r"(
          smem_addr(bar)),
      "r"(bytes)
      : "memory");
#endif
}

/// The barrier pair of an aref with `Stages` slots; lives in shared memory.
template <int Stages> struct Aref {
  static_assert(Stages >= 1, "an aref has at least one slot");
  uint64_t full[Stages];
  uint64_t empty[Stages];

  /// Initialises the barriers; called by one thread, followed by a block
  /// barrier before any other thread uses them.
  /// `consumer_arrivals`: consumed() calls that free a slot.
  __device__ void init(uint32_t consumer_arrivals) {
    for (int s = 0; s < Stages; ++s) {
      mbarrier_init(&full[s], 1);
      mbarrier_init(&empty[s], consumer_arrivals);
    }
#if TAWA_DEVICE_PASS
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
  }

  /// Producer: waits until slot `c.stage` is free, then arms its full barrier
  /// for `bytes` bytes of TMA copies (the copies are issued by the caller
  /// with `full_barrier(c)`).
  __device__ __forceinline__ void put(const ArefCursor<Stages> &c,
                                      uint32_t bytes) {
    mbarrier_wait(&empty[c.stage], c.phase ^ 1u);
    mbarrier_arrive_expect_tx(&full[c.stage], bytes);
  }

  /// Producer of a slot filled over several K steps: waits until slot
  /// `c.stage` is free. Then `expect` and the copies of each step, and
  /// `commit` after the last.
  __device__ __forceinline__ void acquire(const ArefCursor<Stages> &c) {
    mbarrier_wait(&empty[c.stage], c.phase ^ 1u);
  }

  /// Producer: adds one step's `bytes` of TMA copies to slot `c.stage`'s full
  /// barrier. Its phase cannot complete before `commit` arrives, so copies
  /// that land before a later step's `expect` end nothing early.
  __device__ __forceinline__ void expect(const ArefCursor<Stages> &c,
                                         uint32_t bytes) {
    mbarrier_expect_tx(&full[c.stage], bytes);
  }

  /// Producer: the slot's last step is issued; its full barrier's phase
  /// completes once the copies of every step have landed.
  __device__ __forceinline__ void commit(const ArefCursor<Stages> &c) {
    mbarrier_arrive(&full[c.stage]);
  }

  __device__ __forceinline__ uint64_t *
  full_barrier(const ArefCursor<Stages> &c) {
    return &full[c.stage];
  }

  /// Consumer: waits until the data of slot `c.stage` has landed.
  __device__ __forceinline__ void get(const ArefCursor<Stages> &c) {
    mbarrier_wait(&full[c.stage], c.phase);
  }

  /// Consumer warpgroup: releases slot `c.stage` to the producer. Call from
  /// every thread of the warpgroup after its reads of the slot completed
  /// (after `wgmma_wait`); one thread arrives for the warpgroup.
  __device__ __forceinline__ void consumed(const ArefCursor<Stages> &c) {
    if (warpgroup_thread() == 0)
      mbarrier_arrive(&empty[c.stage]);
  }

  /// consumed() for a cluster of `Cluster` CTAs whose producers multicast
  /// into each other's slots: the warpgroup arrives on the `empty` barrier of
  /// slot `c.stage` in every CTA of the cluster (init with consumer
  /// warpgroups x Cluster arrivals).
  template <int Cluster>
  __device__ __forceinline__ void
  consumed_in_cluster(const ArefCursor<Stages> &c) {
    if (warpgroup_thread() == 0)
      for (int rank = 0; rank < Cluster; ++rank)
        mbarrier_arrive_cluster(&empty[c.stage], rank);
  }
};

} // namespace tawa::rt
