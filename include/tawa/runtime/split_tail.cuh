//===- tawa/runtime/split_tail.cuh - the last partial wave split by K -----===//
//
// A persistent walk of U tiles on P CTAs ends with a partial wave: R = U mod P
// tiles while P - R CTAs have nothing to do. Where the K loop is long enough,
// the walk splits those R tiles by K iterations (the "data-parallel + one
// stream-K wave" hybrid of Osama et al., "Stream-K", PPoPP 2023, with the
// split chosen so that the operands stay shared in L2):
//
//   - CTA P - R + r computes the first `head` iterations of tail tile r, from
//     k = 0 like a full wave, so the R heads read the same operand panels at
//     the same time;
//   - CTAs 0 .. P - R - 1 share the rest, R x (T - head) iterations in tile
//     order, `share` each: a CTA's range cuts into pieces at tile
//     boundaries. A piece's fp32 partial sums go to a workspace slot, and its
//     flag is raised with release semantics;
//   - the head waits (acquire) for its tile's pieces, adds them in a fixed
//     order (the result does not depend on timing), lowers the flags for the
//     next launch and stores the tile.
//
// A head waits only for CTAs of lower index, which the hardware starts first,
// so the walk makes progress even when fewer CTAs fit than were launched.
// Piece j of CTA c lands in slot c + r for tail tile r: slots are distinct
// and fewer than P.
//
// Costs were measured on an H100 (results/README.md): storing one piece
// takes about as long as 5 iterations of BK = 64 and adding one about 2.5, so
// the walk splits only where the last wave gets shorter by at least a
// quarter with those costs counted.
//
// A launch of fewer tiles than CTAs is all last wave and may split from the
// start. With at most half as many tiles as CTAs, each tile is split evenly
// into `ways` K ranges, a head and ways - 1 pieces, each piece a CTA of its
// own (decide_even), where the span is at most 3/4 of a whole tile's: on the
// H100 that took launches of 128 x 64 tiles up to 2.2x faster than whole ones
// (32 of 128 iterations, 25.9 against 39.4 us; 16 of 256, 32.3 against 71.8)
// and no launch slower, where pieces that crossed tile boundaries (two stores
// for some CTAs) had gained 1.15-1.95x and lost up to 18% at 64 tiles of
// 64 iterations. With more tiles the CTAs of the pieces are fewer than the
// tiles, and the split is made only where it promises a wave 2.5 times
// shorter.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "arch.cuh"
#include "launch.cuh"
#include "warpgroup.cuh"
#include "wgmma.cuh"

#include <map>
#include <mutex>
#include <utility>

namespace tawa::rt {

/// 16-byte global store and load cached in L2 only (PTX ISA, st/ld with the
/// .cg cache operator): the partial sums are read by another SM.
__device__ __forceinline__ void store_cg(float4 *p, float4 v) {
#if TAWA_DEVICE_PASS
  asm volatile("st.global.cg.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"l"(p),
               "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
               : "memory");
#endif
}
__device__ __forceinline__ float4 load_cg(const float4 *p) {
  float4 v{0.0f, 0.0f, 0.0f, 0.0f};
#if TAWA_DEVICE_PASS
  asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];\n"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(p)
               : "memory");
#endif
  return v;
}

/// The split tail's kernel parameter: a workspace of `slots` x `tile_floats`
/// fp32 partial tiles and one flag per slot and consumer warpgroup (zero
/// between launches). No workspace: no split.
struct SplitTail {
  float *workspace = nullptr;
  uint32_t *flags = nullptr;
  /// Split every partial wave evenly, whatever the costs (for tests:
  /// TAWA_SPLIT_TAIL=force).
  bool force = false;
  /// Cost of storing and of adding one piece, in K elements of the K loop
  /// (H100, 128 x 256 tiles: about 3.3 and 1.6 us).
  static constexpr int kStoreCost = 320, kAddCost = 160;
  /// Launches of at most half as many tiles as CTAs split evenly
  /// (SplitTailWalk::decide_even) into at most kMaxWays parts where the span
  /// is at most kEvenSpan[0] / kEvenSpan[1] of a whole tile's iterations.
  static constexpr int kMaxWays = 8;
  static constexpr int kEvenSpan[2] = {3, 4};
};

/// One item of work: iterations [k_begin, k_end) of the K loop of tile
/// `unit` of the tile walk.
struct TileWork {
  enum Kind { Whole, Head, Piece };
  int unit = 0;
  int k_begin = 0, k_end = 0x7fffffff;
  Kind kind = Whole;
  /// Piece: its workspace slot. Head: the CTAs whose pieces it adds.
  int slot = 0, first = 0, last = -1;
  /// Head and Piece: the trips of a whole tile's K loop.
  int trips = 0;
};

/// The grid a host build of SplitTailWalk walks (tests only).
struct SplitTailWalkGrid {
  static inline int ctas = 1, cta = 0;
};

/// The tile walk of CTA blockIdx.x of a persistent grid of gridDim.x CTAs over
/// `units` tiles: whole tiles t = blockIdx.x, blockIdx.x + gridDim.x, ...
/// below the last partial wave; there, where the split pays, the head of a
/// tile or this CTA's pieces, else the whole tile as before. The walk keeps
/// no state beyond the TileWork: the whole tiles cost one comparison each.
///
///   for (TileWork w = walk.first(); walk.valid(w); walk.advance(w, trips))
///
/// A host build (for tests) reads the grid from SplitTailWalkGrid.
template <int BK> class SplitTailWalk {
public:
  __host__ __device__ SplitTailWalk(const SplitTail &tail, int units)
      : tail_(tail), units_(units),
        whole_(tail.workspace ? units - units % ctas() : units) {}

  /// This CTA's first item. `trips`: the iterations of every tile's K loop,
  /// where the caller can count them before the walk, else 0. A launch of
  /// fewer tiles than CTAs is all last wave: with `trips` it splits from the
  /// start where that pays (the CTAs past the tiles take pieces); without,
  /// its tiles stay whole.
  __host__ __device__ TileWork first(int trips = 0) const {
    TileWork w;
    w.unit = cta();
    if (whole_ == 0 && units_ > 0 && trips > 0) {
      // As if after a whole tile of the wave before.
      w.unit -= ctas();
      advance_tail(w, trips);
    }
    return w;
  }
  __host__ __device__ bool valid(const TileWork &w) const {
    return w.unit < units_;
  }

  /// Steps `w` to this CTA's next item. `trips`: the iterations the K loop of
  /// `w` ran (every tile runs the same K loop; a CTA of a grid with a partial
  /// wave has run at least one whole tile before it).
  __host__ __device__ __forceinline__ void advance(TileWork &w,
                                                   int trips) const {
    const int next = w.unit + ctas();
    // A whole tile of a launch of fewer tiles than CTAs (whole_ == 0) was
    // this CTA's only one: that launch splits from first() or not at all.
    if (w.kind == TileWork::Whole && (next < whole_ || whole_ == 0)) {
      w.unit = next;
      return;
    }
    advance_tail(w, trips);
  }

  /// The workspace slot of the piece of CTA `c` in head `w`'s tile.
  __host__ __device__ int slot(const TileWork &w, int c) const {
    return c + (w.unit - whole_);
  }

private:
#if defined(__CUDA_ARCH__)
  __device__ static int ctas() { return static_cast<int>(gridDim.x); }
  __device__ static int cta() { return static_cast<int>(blockIdx.x); }
#else
  static int ctas() { return SplitTailWalkGrid::ctas; }
  static int cta() { return SplitTailWalkGrid::cta; }
#endif
  __host__ __device__ static int least(int a, int b) { return a < b ? a : b; }

  /// The split of the last partial wave for tiles of T iterations.
  struct Split {
    int head = 0;  ///< iterations of a head, 0: no split
    int rest = 0;  ///< iterations after the head
    int share = 0; ///< iterations per CTA of the pieces
    int idle = 0;  ///< CTAs of the pieces: 0 .. idle - 1
  };

  /// Splits the R tiles of T iterations where the last wave gets shorter by
  /// at least a quarter, with the measured costs of the pieces counted.
  __host__ __device__ Split decide(int T) const {
    Split s;
    const int ctas = this->ctas(), R = units_ - whole_, idle = ctas - R;
    if (R == 0 || T < 2)
      return s;
    // Iterations of one piece's store and add.
    constexpr int c = 1 + (SplitTail::kStoreCost - 1) / BK;
    constexpr int a = 1 + (SplitTail::kAddCost - 1) / BK;
    if (whole_ == 0 && idle >= R)
      return decide_even(T, R, idle, c, a);
    // Heads carry two adds, the CTAs of the pieces two stores: heads take
    // 2 (c - a) iterations more, spread over the wave.
    const int even = (R * T + ctas - 1) / ctas;
    int head = (R * T + 2 * idle * (c - a) + ctas - 1) / ctas;
    if (head < even || tail_.force)
      head = even;
    if (head >= T)
      return s;
    const int L = T - head;
    const int share = (R * L + idle - 1) / idle;
    const int tail_time = share + c * ((share + L - 1) / L + 1);
    const int head_time = head + a * ((L + share - 1) / share + 1);
    const int span = tail_time > head_time ? tail_time : head_time;
    // A launch of fewer tiles than CTAs (whole_ == 0) with pieces that
    // cross tiles gained far less than this count says (results/README.md):
    // there it must promise at least 2.5 times shorter.
    const bool pays = whole_ == 0 ? 5 * span <= 2 * T : 4 * (T - span) >= T;
    if (!pays && !tail_.force)
      return s;
    s.head = head;
    s.rest = L;
    s.share = share;
    s.idle = idle;
    return s;
  }

  /// A launch of at most half as many tiles as CTAs: each tile in `ways`
  /// K ranges, the head's first and ways - 1 pieces of `share` iterations
  /// after it, one CTA each, so that no CTA stores twice. `ways` is the one
  /// of the shortest span, at most kMaxWays; the split is made where that
  /// span is at most SplitTail::kEvenSpan of T.
  __host__ __device__ Split decide_even(int T, int R, int idle, int c,
                                        int a) const {
    Split s;
    int best = 0, best_span = T;
    const int most = least(least(1 + idle / R, T), SplitTail::kMaxWays);
    for (int ways = 2; ways <= most; ++ways) {
      const int share = T / ways, head = T - (ways - 1) * share;
      const int tail_time = share + c, head_time = head + a * (ways - 1);
      const int span = tail_time > head_time ? tail_time : head_time;
      if (span < best_span)
        best = ways, best_span = span;
    }
    const bool pays =
        best_span * SplitTail::kEvenSpan[1] <= T * SplitTail::kEvenSpan[0];
    if (!best || (!pays && !tail_.force))
      return s;
    s.share = T / best;
    s.rest = (best - 1) * s.share;
    s.head = T - s.rest;
    s.idle = idle;
    return s;
  }

  __host__ __device__ void advance_tail(TileWork &w, int trips) const {
    const int cta = this->cta(), R = units_ - whole_;
    const int T = w.kind == TileWork::Whole ? trips : w.trips;
    const Split s = decide(T);
    int pos = 0;
    if (w.kind == TileWork::Whole) {
      const int next = w.unit + ctas();
      if (!s.head || next < whole_) {
        w.unit = next; // a whole tile, or past the end
        return;
      }
      if (cta >= s.idle) {
        const int r = cta - s.idle;
        w = TileWork{};
        w.unit = whole_ + r;
        w.k_end = s.head;
        w.kind = TileWork::Head;
        w.first = (r * s.rest) / s.share;
        w.last = ((r + 1) * s.rest - 1) / s.share;
        w.trips = T;
        return;
      }
      pos = cta * s.share;
    } else if (w.kind == TileWork::Piece) {
      pos = (w.unit - whole_) * s.rest + (w.k_end - s.head);
    } else {
      pos = R * s.rest; // a head is all
    }
    const int end = least((cta + 1) * s.share, R * s.rest);
    if (pos >= end) {
      w.unit = units_;
      return;
    }
    const int r = pos / s.rest;
    const int e = least(end, (r + 1) * s.rest);
    w = TileWork{};
    w.unit = whole_ + r;
    w.k_begin = s.head + pos - r * s.rest;
    w.k_end = s.head + e - r * s.rest;
    w.kind = TileWork::Piece;
    w.slot = cta + r;
    w.trips = T;
  }

  const SplitTail &tail_;
  int units_, whole_;
};

/// Writes a consumer warpgroup's accumulator to workspace slot `slot` (its
/// part for `consumer` of `Consumers`), then raises the flag with release
/// semantics (PTX ISA, memory consistency model: st.release.gpu; the named
/// barrier orders the warpgroup's stores before it). Stores are in fragment
/// order: 16 bytes per thread and register quad, coalesced.
template <int Consumers, int MTiles, int N>
__device__ __forceinline__ void
store_piece(const SplitTail &tail, int slot, int consumer,
            const WgmmaAccumulator<MTiles, N> &acc, int barrier) {
  constexpr int kQuads = MTiles * N / 8;
  const int t = warpgroup_thread();
  float4 *dst = reinterpret_cast<float4 *>(tail.workspace) +
                static_cast<size_t>(slot * Consumers + consumer) * kQuads *
                    kWarpgroupThreads;
#pragma unroll
  for (int mt = 0; mt < MTiles; ++mt)
#pragma unroll
    for (int i = 0; i < N / 8; ++i)
      store_cg(dst + (mt * (N / 8) + i) * kWarpgroupThreads + t,
               float4{acc.d[mt][4 * i], acc.d[mt][4 * i + 1],
                      acc.d[mt][4 * i + 2], acc.d[mt][4 * i + 3]});
  named_barrier_sync(barrier, kWarpgroupThreads);
  if (t == 0) {
#if TAWA_DEVICE_PASS
    asm volatile("fence.acq_rel.gpu;\n"
                 "st.release.gpu.global.u32 [%0], 1;\n" ::"l"(
                     tail.flags + slot * Consumers + consumer)
                 : "memory");
#endif
  }
}

/// Head: waits for the pieces of its tile (CTAs w.first .. w.last), lowers
/// their flags and adds their partial sums to the accumulator, in CTA order.
template <int Consumers, int BK, int MTiles, int N>
__device__ __forceinline__ void
add_pieces(const SplitTail &tail, const SplitTailWalk<BK> &walk,
           const TileWork &w, int consumer, WgmmaAccumulator<MTiles, N> &acc,
           int barrier) {
  constexpr int kQuads = MTiles * N / 8;
  const int t = warpgroup_thread();
  if (t == 0) {
    for (int c = w.first; c <= w.last; ++c) {
      uint32_t *flag = tail.flags + walk.slot(w, c) * Consumers + consumer;
#if TAWA_DEVICE_PASS
      for (uint32_t seen = 0;;) {
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n"
                     : "=r"(seen)
                     : "l"(flag)
                     : "memory");
        if (seen)
          break;
        asm volatile("nanosleep.u32 64;\n" ::: "memory");
      }
#endif
      *flag = 0;
    }
  }
  named_barrier_sync(barrier, kWarpgroupThreads);
  for (int c = w.first; c <= w.last; ++c) {
    const float4 *src =
        reinterpret_cast<const float4 *>(tail.workspace) +
        static_cast<size_t>(walk.slot(w, c) * Consumers + consumer) * kQuads *
            kWarpgroupThreads;
#pragma unroll
    for (int mt = 0; mt < MTiles; ++mt)
#pragma unroll
      for (int i = 0; i < N / 8; ++i) {
        const float4 v =
            load_cg(src + (mt * (N / 8) + i) * kWarpgroupThreads + t);
        acc.d[mt][4 * i] += v.x;
        acc.d[mt][4 * i + 1] += v.y;
        acc.d[mt][4 * i + 2] += v.z;
        acc.d[mt][4 * i + 3] += v.w;
      }
  }
}

/// Host: the split tail of a launch of `ctas` CTAs on `stream`, each tile
/// `tile_floats` fp32 accumulators (BM x BN) shared by `consumers` warpgroups.
/// The workspace (ctas slots, about 17 MB for 132 CTAs and 128 x 256 tiles)
/// is allocated on the first launch on a stream and kept; launches on one
/// stream run in order, so they share it safely. A launch being captured into
/// a graph keeps its tiles whole: the graph may be launched on another stream,
/// beside launches on this one, or after the workspace has been reallocated
/// for a larger tile. TAWA_SPLIT_TAIL=off in the environment turns the split
/// off, =force splits every partial wave (tests). Returns the CUDA error of
/// the capture query or the allocation.
inline cudaError_t split_tail_plan(int ctas, int consumers, size_t tile_floats,
                                   cudaStream_t stream, SplitTail *tail) {
  *tail = SplitTail{};
  static const int mode = env_switch("TAWA_SPLIT_TAIL");
  if (mode == 1)
    return cudaSuccess;
  struct Workspace {
    float *partials = nullptr;
    uint32_t *flags = nullptr;
    size_t floats = 0, flag_count = 0;
  };
  static std::mutex lock;
  static std::map<std::pair<int, cudaStream_t>, Workspace> workspaces;
  int device = 0;
  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
    return e;
  const size_t floats = static_cast<size_t>(ctas) * tile_floats;
  const size_t flag_count = static_cast<size_t>(ctas) * consumers;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaError_t e = cudaStreamIsCapturing(stream, &capture); e != cudaSuccess)
    return e;
  if (capture != cudaStreamCaptureStatusNone)
    return cudaSuccess;
  std::lock_guard<std::mutex> guard(lock);
  Workspace &ws = workspaces[{device, stream}];
  if (ws.floats < floats || ws.flag_count < flag_count) {
    // Launches on this stream that may still use the old one come first.
    if (cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess)
      return e;
    cudaFree(ws.partials);
    cudaFree(ws.flags);
    ws = Workspace{};
    if (cudaError_t e = cudaMalloc(&ws.partials, floats * sizeof(float));
        e != cudaSuccess)
      return e;
    if (cudaError_t e = cudaMalloc(&ws.flags, flag_count * sizeof(uint32_t));
        e != cudaSuccess)
      return e;
    if (cudaError_t e =
            cudaMemsetAsync(ws.flags, 0, flag_count * sizeof(uint32_t), stream);
        e != cudaSuccess)
      return e;
    ws.floats = floats;
    ws.flag_count = flag_count;
  }
  tail->workspace = ws.partials;
  tail->flags = ws.flags;
  tail->force = mode == 2;
  return cudaSuccess;
}

} // namespace tawa::rt
