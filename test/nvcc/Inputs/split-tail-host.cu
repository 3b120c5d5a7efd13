// Host checks of the split tail's walk (tawa/runtime/split_tail.cuh): for
// grids of many sizes, tile counts and K trip counts, every (tile, K
// iteration) is computed exactly once over all CTAs, every piece has its own
// workspace slot below the CTA count, each head adds exactly the pieces of
// its tile, a head waits only for CTAs of lower index, a launch of at most
// half as many tiles as CTAs gives each CTA at most one piece, and some cases
// split (with the cost model, and forced as TAWA_SPLIT_TAIL=force does).
// Prints the number of cases; exits 1 at the first failure.
#include <tawa/runtime/split_tail.cuh>

#include <cstdio>
#include <map>
#include <set>
#include <vector>

using tawa::rt::SplitTail;
using tawa::rt::SplitTailWalk;
using tawa::rt::SplitTailWalkGrid;
using tawa::rt::TileWork;

static int check(int ctas, int units, int trips, bool workspace, int &splits,
                 bool force = false, bool counted = false) {
  SplitTail tail;
  static float partials;
  static uint32_t flags;
  if (workspace) {
    tail.workspace = &partials;
    tail.flags = &flags;
    tail.force = force;
  }
  std::vector<int> covered(static_cast<size_t>(units) * trips, 0);
  std::map<int, int> slot_tile;            // slot -> tile
  std::map<int, std::set<int>> head_slots; // tile -> slots it adds
  std::map<int, int> head_cta;             // tile -> head's CTA
  std::map<int, std::set<int>> piece_ctas; // tile -> CTAs of its pieces
  std::map<int, int> pieces_of;            // CTA -> its pieces
  SplitTailWalkGrid::ctas = ctas;
  for (int cta = 0; cta < ctas; ++cta) {
    SplitTailWalkGrid::cta = cta;
    const SplitTailWalk<64> walk(tail, units);
    int k_iter = 0;
    for (TileWork w = walk.first(counted ? trips : 0); walk.valid(w);
         walk.advance(w, k_iter)) {
      const int begin = w.k_begin, end = w.k_end < trips ? w.k_end : trips;
      if (w.unit < 0 || w.unit >= units ||
          (w.kind != TileWork::Whole && begin >= end)) {
        std::printf("FAIL %d %d %d: cta %d got tile %d [%d, %d)\n", ctas, units,
                    trips, cta, w.unit, begin, end);
        return 1;
      }
      for (int k = begin; k < end; ++k)
        ++covered[static_cast<size_t>(w.unit) * trips + k];
      k_iter = end; // what the K loop counts for a whole tile
      if (w.kind == TileWork::Piece) {
        if (w.slot < 0 || w.slot >= ctas ||
            !slot_tile.emplace(w.slot, w.unit).second) {
          std::printf("FAIL %d %d %d: slot %d\n", ctas, units, trips, w.slot);
          return 1;
        }
        piece_ctas[w.unit].insert(cta);
        // At most half as many tiles as CTAs split evenly: one piece a CTA.
        if (2 * units <= ctas && ++pieces_of[cta] > 1) {
          std::printf("FAIL %d %d %d: cta %d stores two pieces\n", ctas, units,
                      trips, cta);
          return 1;
        }
      } else if (w.kind == TileWork::Head) {
        head_cta[w.unit] = cta;
        for (int c = w.first; c <= w.last; ++c)
          head_slots[w.unit].insert(walk.slot(w, c));
      }
    }
  }
  for (size_t i = 0; i < covered.size(); ++i)
    if (covered[i] != 1) {
      std::printf("FAIL %d %d %d: tile %zu iteration %zu computed %d times\n",
                  ctas, units, trips, i / trips, i % trips, covered[i]);
      return 1;
    }
  for (const auto &[slot, tile] : slot_tile)
    if (!head_slots[tile].count(slot)) {
      std::printf("FAIL %d %d %d: slot %d of tile %d has no head\n", ctas,
                  units, trips, slot, tile);
      return 1;
    }
  for (const auto &[tile, slots] : head_slots) {
    for (int slot : slots)
      if (!slot_tile.count(slot) || slot_tile[slot] != tile) {
        std::printf("FAIL %d %d %d: head of tile %d waits for slot %d\n", ctas,
                    units, trips, tile, slot);
        return 1;
      }
    for (int c : piece_ctas[tile])
      if (c >= head_cta[tile]) {
        std::printf("FAIL %d %d %d: head CTA %d waits for CTA %d\n", ctas,
                    units, trips, head_cta[tile], c);
        return 1;
      }
  }
  splits += !head_cta.empty();
  return 0;
}

int main() {
  int cases = 0, splits = 0;
  const int grids[] = {1, 2, 3, 7, 16, 114, 132};
  const int trip_counts[] = {0, 1, 2, 7, 8, 16, 31, 64, 100, 128, 256};
  for (int ctas : grids)
    for (int units = ctas; units <= 3 * ctas + 1; units += (ctas > 16 ? 7 : 1))
      for (int trips : trip_counts)
        for (int mode = 0; mode < 3; ++mode) {
          // No workspace; split where it pays; split always (forced).
          if (check(ctas, units, trips, mode > 0, splits, mode == 2))
            return 1;
          ++cases;
        }
  // Fewer tiles than CTAs, with the trip count known before the walk (the
  // CTAs past the tiles take pieces) and without it (whole tiles).
  for (int ctas : grids)
    for (int units = 1; units < ctas; units += (ctas > 16 ? 5 : 1))
      for (int trips : trip_counts)
        for (int mode = 0; mode < 3; ++mode)
          for (bool counted : {false, true}) {
            if (check(ctas, units, trips, mode > 0, splits, mode == 2, counted))
              return 1;
            ++cases;
          }
  // 128 x 64 tiles on 132 SMs, split from the start: at most 66 tiles
  // evenly where the span is at most 3/4 of a tile's, so 128x2048x8192 (32
  // tiles of 128 iterations) and 128x4096x4096 (64 of 64) split, 512x512x512
  // (32 of 8) does not; more tiles where the wave gets 2.5 times shorter,
  // which 100 tiles of 64 iterations do not.
  {
    const struct {
      int units, trips;
      bool want;
    } starts[] = {{32, 128, true}, {16, 256, true}, {64, 64, true},
                  {64, 128, true}, {32, 8, false},  {100, 64, false}};
    for (const auto &c : starts) {
      const int before = splits;
      if (check(132, c.units, c.trips, true, splits, false, true))
        return 1;
      if ((splits > before) != c.want) {
        std::printf("FAIL: %d tiles of %d iterations on 132 CTAs: split %d\n",
                    c.units, c.trips, splits > before);
        return 1;
      }
    }
  }
  // The benchmark's shapes: 8192^2 tiles of 128 x 256 on 132 SMs split at
  // K >= 4096; 4096^3 does not.
  if (check(132, 2048, 128, true, splits) || check(132, 512, 64, true, splits))
    return 1;
  if (splits == 0) {
    std::printf("FAIL: no case split\n");
    return 1;
  }
  std::printf("split tail: %d cases ok, %d split\n", cases, splits);
  return 0;
}
