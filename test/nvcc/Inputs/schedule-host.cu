// Host checks of the tile walk (tawa/runtime/schedule.cuh): FastDivisor
// against the division operator, and TileSchedule against the grouped
// raster order written with plain divisions, covering every tile once, and
// OrderedTileSchedule (attention's walk) the same way.
// Prints the number of cases; exits 1 at the first mismatch.
#include <tawa/runtime/schedule.cuh>

#include <cstdio>
#include <vector>

using tawa::rt::FastDivisor;
using tawa::rt::TileSchedule;

static int fail(const char *what, long a, long b, long c, long d) {
  std::printf("MISMATCH %s: %ld %ld -> %ld, want %ld\n", what, a, b, c, d);
  return 1;
}

// The walk of schedule.cuh spelled with / and %: unit t of a grid of X x Y
// units (Y counted in clusters) and Z planes.
static uint3 reference(uint32_t X, uint32_t Y, int group, bool along_y,
                       uint32_t t) {
  const uint32_t z = t / (X * Y), r = t % (X * Y);
  const uint32_t rows = along_y ? Y : X, cols = along_y ? X : Y;
  const uint32_t g = r / (group * cols), first = g * group;
  const uint32_t height = rows - first < uint32_t(group) ? rows - first : group;
  const uint32_t in = r - g * group * cols;
  const uint32_t a = first + in % height, b = in / height;
  return along_y ? make_uint3(b, a, z) : make_uint3(a, b, z);
}

int main() {
  long cases = 0;
  std::vector<uint32_t> divisors;
  for (uint32_t d = 1; d <= 2048; ++d)
    divisors.push_back(d);
  for (int k = 11; k <= 30; ++k)
    for (long delta : {-1L, 0L, 1L, 12345L})
      divisors.push_back(static_cast<uint32_t>((1L << k) + delta));
  divisors.push_back(0x7fffffffu);
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    return static_cast<uint32_t>(seed & 0x7fffffffu);
  };
  for (uint32_t d : divisors) {
    const FastDivisor f(d);
    std::vector<uint32_t> ns = {0,     1,         d - 1,       d,
                                d + 1, 2 * d - 1, 0x7fffffffu, 0x7ffffffeu};
    for (int i = 0; i < 64; ++i)
      ns.push_back(next());
    for (int i = 0; i < 16; ++i) {
      const uint32_t q = next() / d;
      ns.push_back(q * d), ns.push_back(q * d + d - 1);
    }
    for (uint32_t n : ns) {
      if (n > 0x7fffffffu)
        continue;
      ++cases;
      if (f.div(n) != n / d)
        return fail("FastDivisor", n, d, f.div(n), n / d);
    }
  }

  const dim3 grids[] = {{1, 1, 1},  {32, 64, 1}, {24, 48, 1}, {7, 13, 1},
                        {13, 7, 3}, {128, 1, 1}, {1, 129, 2}, {16, 16, 8},
                        {5, 9, 4},  {64, 33, 1}};
  for (dim3 grid : grids)
    for (int group : {1, 3, 4, 8, 16, 200})
      for (bool along_y : {true, false})
        for (int cluster : {1, 2}) {
          const TileSchedule s(grid, group, along_y, cluster);
          const uint32_t Y = (grid.y + cluster - 1) / cluster;
          if (s.count() != static_cast<int>(grid.x * Y * grid.z))
            return fail("count", grid.x, grid.y, s.count(), grid.x * Y);
          std::vector<int> seen(grid.x * grid.y * grid.z, 0);
          for (int t = 0; t < s.count(); ++t) {
            const uint3 want = reference(grid.x, Y, group, along_y, t);
            for (int rank = 0; rank < cluster; ++rank) {
              const uint3 got = s.tile(t, rank);
              ++cases;
              // A tile past the grid stores nothing and is given the grid's
              // last row, a block of the original launch.
              const uint32_t y = want.y * cluster + rank;
              const bool inside = y < grid.y;
              if (got.x != want.x || got.y != (inside ? y : grid.y - 1) ||
                  got.z != want.z)
                return fail("tile", t, rank, got.x * 100000 + got.y,
                            want.x * 100000 + y);
              if (got.x >= grid.x || got.y >= grid.y || got.z >= grid.z)
                return fail("tile out of the grid", t, rank, got.x, got.y);
              if (s.in_grid(t, rank) != inside)
                return fail("in_grid", t, rank, s.in_grid(t, rank), inside);
              if (inside)
                ++seen[(got.z * grid.y + got.y) * grid.x + got.x];
            }
          }
          for (int n : seen)
            if (n != 1)
              return fail("tile visits", grid.x, grid.y, n, 1);
        }
  // Merged tiles: each covers merge_x x merge_y blocks of the original grid
  // from the block tile() names; together they cover every block once, and
  // the blocks past the grid only in the last tile of a dimension. A
  // cluster's tile past the grid (in_grid false) stores nothing.
  for (dim3 grid : grids)
    for (int merge_x : {1, 2, 4})
      for (int merge_y : {1, 2, 3})
        for (int cluster : {1, 2}) {
          const TileSchedule s(grid, 8, true, cluster, merge_x, merge_y);
          const uint32_t X = (grid.x + merge_x - 1) / merge_x;
          const uint32_t Y = (grid.y + merge_y - 1) / merge_y;
          const uint32_t units = X * ((Y + cluster - 1) / cluster) * grid.z;
          if (s.count() != static_cast<int>(units))
            return fail("merged count", grid.x, grid.y, s.count(), units);
          std::vector<int> seen(grid.x * grid.y * grid.z, 0);
          for (int t = 0; t < s.count(); ++t)
            for (int rank = 0; rank < cluster; ++rank) {
              const uint3 got = s.tile(t, rank);
              if (got.x % merge_x || got.y % merge_y)
                return fail("merged origin", t, rank, got.x, got.y);
              if (!s.in_grid(t, rank))
                continue;
              for (int dy = 0; dy < merge_y; ++dy)
                for (int dx = 0; dx < merge_x; ++dx) {
                  const uint32_t x = got.x + dx, y = got.y + dy;
                  ++cases;
                  if (x < grid.x && y < grid.y)
                    ++seen[(got.z * grid.y + y) * grid.x + x];
                  else if (x >= grid.x + merge_x ||
                           y >= grid.y + merge_y * cluster)
                    return fail("merged tile past the grid", t, rank, x, y);
                }
            }
          for (int n : seen)
            if (n != 1)
              return fail("merged visits", grid.x, grid.y, n, 1);
        }
  // Narrow tiles: `parts` units per merged tile, each naming the merged
  // tile's first block and its part; every (block, part) once.
  for (dim3 grid : grids)
    for (int merge_x : {1, 2})
      for (int parts : {1, 2, 3, 4})
        for (int cluster : {1, 2}) {
          const TileSchedule s(grid, 8, true, cluster, merge_x, 1, parts);
          const uint32_t X = (grid.x + merge_x - 1) / merge_x;
          const uint32_t Y = (grid.y + cluster - 1) / cluster;
          if (s.count() != static_cast<int>(X * parts * Y * grid.z))
            return fail("narrow count", grid.x, parts, s.count(),
                        X * parts * Y * grid.z);
          std::vector<int> seen(X * parts * grid.y * grid.z, 0);
          for (int t = 0; t < s.count(); ++t)
            for (int rank = 0; rank < cluster; ++rank) {
              const uint3 got = s.tile(t, rank);
              const int part = s.part(t);
              ++cases;
              if (got.x % merge_x || got.x >= grid.x || part < 0 ||
                  part >= parts || got.y >= grid.y)
                return fail("narrow tile", t, rank, got.x, part);
              if (!s.in_grid(t, rank))
                continue;
              ++seen[((got.z * grid.y + got.y) * X + got.x / merge_x) * parts +
                     part];
            }
          for (int n : seen)
            if (n != 1)
              return fail("narrow visits", grid.x, parts, n, 1);
        }
  // Clusters along x (cluster_x): the ranks of a unit take adjacent narrow
  // tiles of the same row of tiles, so that they share A's tile; a rank
  // past the last column is given it and stores nothing. Every (block,
  // part) once.
  for (dim3 grid : grids)
    for (int parts : {1, 2, 3, 4})
      for (bool along_y : {true, false}) {
        const TileSchedule s(grid, 8, along_y, 2, 1, 1, parts, 0, 1, 0,
                             /*cluster_x=*/true);
        const uint32_t X = grid.x * parts, pairs = (X + 1) / 2;
        if (s.count() != static_cast<int>(pairs * grid.y * grid.z))
          return fail("x-cluster count", grid.x, parts, s.count(),
                      pairs * grid.y * grid.z);
        std::vector<int> seen(X * grid.y * grid.z, 0);
        for (int t = 0; t < s.count(); ++t) {
          const uint3 first = s.tile(t, 0);
          const uint32_t x0 = first.x * parts + s.part(t, 0);
          for (int rank = 0; rank < 2; ++rank) {
            const uint3 got = s.tile(t, rank);
            const uint32_t x = got.x * parts + s.part(t, rank);
            ++cases;
            const bool inside = x0 + rank < X;
            if (got.y != first.y || got.z != first.z ||
                x != (inside ? x0 + rank : X - 1) || x0 % 2 != 0)
              return fail("x-cluster tile", t, rank, x, x0 + rank);
            if (s.in_grid(t, rank) != inside)
              return fail("x-cluster in_grid", t, rank, s.in_grid(t, rank),
                          inside);
            if (inside)
              ++seen[(got.z * grid.y + got.y) * X + x];
          }
        }
        for (int n : seen)
          if (n != 1)
            return fail("x-cluster visits", grid.x, parts, n, 1);
      }
  // merged_walk_exact: a grid that divides, or whose last merged tiles
  // reach only past the stored matrix.
  struct Exact {
    dim3 grid;
    int merge_x, merge_y;
    long long cols, rows;
    long long col_offset, row_offset;
    bool want;
  };
  const Exact exact[] = {
      {{16, 8, 1}, 4, 2, 1024, 512, 0, 0, true},  // divides
      {{17, 8, 1}, 4, 2, 1088, 512, 0, 0, true},  // past C's columns
      {{17, 8, 1}, 4, 2, 1100, 512, 0, 0, false}, // stops inside C
      {{16, 9, 1}, 4, 2, 1024, 576, 0, 0, true},  // past C's rows
      {{16, 9, 1}, 4, 2, 1024, 600, 0, 0, false}, // stops inside C
      {{17, 8, 1}, 4, 2, 1100, 512, 64, 0, true}, // an offset reaches it
      {{17, 8, 1}, 1, 2, 1100, 512, 0, 0, true}}; // x not merged
  for (const Exact &e : exact) {
    ++cases;
    if (tawa::rt::merged_walk_exact(e.grid, e.merge_x, e.merge_y, e.cols,
                                    e.rows, 64, 64, e.col_offset,
                                    e.row_offset) != e.want)
      return fail("merged_walk_exact", e.grid.x, e.grid.y, !e.want, e.want);
  }
  // The walk across the columns: tile x 0, one unit per column tile of
  // `width` over the grid's columns, each (row, column tile) once; a
  // column tile starts inside the launch's columns.
  for (dim3 grid : grids)
    for (int width : {64, 192, 320})
      for (int merge_y : {1, 2})
        for (int cluster : {1, 2}) {
          const TileSchedule s =
              TileSchedule::across(grid, 8, true, cluster, merge_y, 256, width);
          const uint32_t C = (grid.x * 256 + width - 1) / width;
          const uint32_t Y = (grid.y + merge_y - 1) / merge_y;
          const uint32_t R = (Y + cluster - 1) / cluster;
          if (s.count() != static_cast<int>(C * R * grid.z))
            return fail("across count", grid.x, width, s.count(),
                        C * R * grid.z);
          std::vector<int> seen(C * Y * grid.z, 0);
          for (int t = 0; t < s.count(); ++t)
            for (int rank = 0; rank < cluster; ++rank) {
              const uint3 got = s.tile(t, rank);
              const int c = s.part(t);
              ++cases;
              if (got.x != 0 || c < 0 || c >= static_cast<int>(C) ||
                  got.y % merge_y || got.y / merge_y >= Y ||
                  static_cast<uint32_t>(c) * width >= grid.x * 256)
                return fail("across tile", t, rank, got.x, c);
              if (!s.in_grid(t, rank))
                continue;
              ++seen[(got.z * Y + got.y / merge_y) * C + c];
            }
          for (int n : seen)
            if (n != 1)
              return fail("across visits", grid.x, width, n, 1);
        }
  // narrow_walk_exact: the last column tile ends with the launch's columns,
  // or these reach the end of the stored matrix.
  struct WalkExact {
    unsigned grid_x;
    int width;
    long long cols, col_offset;
    bool want;
  };
  const WalkExact walks[] = {
      {3, 192, 768, 0, true},    // 768 columns: 4 tiles of 192
      {10, 192, 2560, 0, true},  // the last tile reaches past C
      {10, 192, 2600, 0, false}, // C goes on past the launch
      {10, 192, 2600, 40, true}, // the offset reaches C's end
      {10, 128, 2600, 0, true}}; // 128 divides the launch
  for (const WalkExact &w : walks) {
    ++cases;
    if (tawa::rt::narrow_walk_exact(dim3(w.grid_x, 4, 1), 256, w.width, w.cols,
                                    w.col_offset) != w.want)
      return fail("narrow_walk_exact", w.grid_x, w.width, !w.want, w.want);
  }
  // narrow_launch: parts of the wide tiles where a width divides them, the
  // walk across the columns where not, -1 where that walk is not exact.
  {
    using tawa::rt::NarrowLaunch;
    // 1024 x 2560: 8 x 10 wide tiles; 192 columns: 8 x 14.
    NarrowLaunch l = tawa::rt::narrow_launch(dim3(10, 8, 1), 1, 1, 256,
                                             {64, 128, 192}, 2560, 0);
    const long long want[] = {320, 160, 112};
    ++cases;
    if (l.tiles != 80 || l.kernels != 3)
      return fail("narrow_launch tiles", l.tiles, l.kernels, 80, 3);
    for (int i = 0; i < 3; ++i)
      if (l.narrow_tiles[i] != want[i])
        return fail("narrow_launch", i, 0, l.narrow_tiles[i], want[i]);
    // C goes on past the launch's columns: the walk across cannot run it.
    l = tawa::rt::narrow_launch(dim3(10, 8, 1), 1, 1, 256, {64, 192}, 3000, 0);
    ++cases;
    if (l.narrow_tiles[0] != 320 || l.narrow_tiles[1] != -1)
      return fail("narrow_launch inexact", l.narrow_tiles[0], l.narrow_tiles[1],
                  320, -1);
    // Blocks of 64 columns merged 4 x 2, batches of 3: 3 x 4 x 3 wide
    // tiles; 192 columns across 11 x 64 = 704 columns: 4 column tiles.
    l = tawa::rt::narrow_launch(dim3(11, 7, 3), 4, 2, 64, {128, 192}, 704, 0);
    ++cases;
    if (l.tiles != 36 || l.narrow_tiles[0] != 72 || l.narrow_tiles[1] != 48)
      return fail("narrow_launch merged", l.tiles, l.narrow_tiles[1], 36,
                  48); // 4096 x 64 under 128 x 256 wide tiles: one of each wide
                       // tile's parts
    // stores anything, so the narrow walks keep one tile along x.
    l = tawa::rt::narrow_launch(dim3(1, 32, 1), 1, 1, 256, {64, 128}, 64, 0);
    ++cases;
    if (l.narrow_tiles[0] != 32 || l.narrow_tiles[1] != 32)
      return fail("narrow_launch trimmed", l.narrow_tiles[0], l.narrow_tiles[1],
                  32, 32);
    // 300 columns from column 0 under 2 wide tiles: 5 of 8 parts of 64.
    ++cases;
    if (tawa::rt::narrow_x_units(dim3(2, 4, 1), 1, 4, 64, 300, 0) != 5 ||
        tawa::rt::narrow_x_units(dim3(2, 4, 1), 1, 4, 64, 300, 100) != 4 ||
        tawa::rt::narrow_x_units(dim3(2, 4, 1), 1, 4, 64, 5000, 0) != 8)
      return fail("narrow_x_units", 300, 0,
                  tawa::rt::narrow_x_units(dim3(2, 4, 1), 1, 4, 64, 300, 0), 5);
  }
  // A trimmed narrow walk visits the first x_units tiles along x of every
  // row, once each, with their parts.
  for (int x_units = 1; x_units <= 8; ++x_units) {
    const TileSchedule s(dim3(2, 4, 1), 8, true, 1, 1, 1, 4, x_units);
    ++cases;
    if (s.count() != x_units * 4)
      return fail("trimmed count", x_units, 0, s.count(), x_units * 4);
    std::vector<int> seen(8 * 4, 0);
    for (int t = 0; t < s.count(); ++t) {
      const uint3 got = s.tile(t);
      const int x = static_cast<int>(got.x) * 4 + s.part(t);
      if (x >= x_units || got.y >= 4 || seen[x + 8 * got.y]++)
        return fail("trimmed tile", t, x_units, x, got.y);
    }
  }
  // narrow_choice: the narrowest kernel whose tiles fill at most one wave;
  // else, at most half a wave of wide tiles, the widest that can run; else
  // the wide kernel.
  struct Choice {
    long long tiles;
    int sms;
    std::vector<long long> narrow;
    int want;
  };
  const Choice choices[] = {
      {16, 132, {64, 32, 22}, 0},      // a quarter wave: 64 columns
      {33, 132, {132, 66, 44}, 0},     //
      {34, 132, {136, 68, 46}, 1},     // up to half a wave: 128
      {66, 132, {264, 132, 88}, 1},    //
      {67, 132, {268, 134, 90}, 2},    // past half a wave: 192
      {80, 132, {320, 160, 112}, 2},   //
      {99, 132, {396, 198, 132}, 2},   //
      // 1536^3 with 144 columns among the widths: 72 wide tiles; 128
      // columns take 144 tiles, 144 fill the wave with 132.
      {72, 132, {288, 144, 132, 96}, 2},
      {100, 132, {400, 200, 136}, -1}, // 192 takes two waves: wide
      {2048, 132, {8192, 4096, 2731}, -1},
      {40, 132, {160}, 0},      // one width, two waves: still narrow
      {67, 132, {268}, -1},     // past half a wave: wide
      {80, 132, {320, -1}, -1}, // the walk across cannot run it
      {40, 132, {160, -1}, 0},  // the widest that can run
      {20, 132, {160, 80, 40}, 1},
      {10, 78, {40, 20}, 0},
      {30, 78, {120, 60}, 1},
      {16, 132, {}, -1}};
  for (const Choice &c : choices) {
    ++cases;
    const int got = tawa::rt::narrow_choice(c.tiles, c.sms, c.narrow.data(),
                                            static_cast<int>(c.narrow.size()));
    if (got != c.want)
      return fail("narrow_choice", c.tiles, c.sms, got, c.want);
  }
  // With the widths, a launch of more than a wave: a narrow kernel of at
  // least half the wide width, or one of no more tiles than the wide, whose
  // waves, counted whole and as long as its width, add up to at most 0.85
  // of the wide kernel's; ties keep the wider.
  const int widths[] = {64, 128, 192};
  const Choice waves[] = {
      // 3000 x 3000: 24 x 12 wide tiles, 3 waves x 256 = 768; 128: 24 x 24,
      // 5 x 128 = 640; 192: 24 x 16, 3 x 192 = 576.
      {288, 132, {1152, 576, 384}, 2},
      // 256 x 22016: 2 waves x 256 = 512; 128 and 192 both 384: the wider.
      {172, 132, {688, 344, 230}, 2},
      // 4096^3: 4 waves x 256 = 1024; 128: 1024, 192: 6 x 192 = 1152.
      {512, 132, {2048, 1024, 704}, -1},
      // 5000^3: 7 x 256 = 1792; 128: 1664 (0.93), 192: 1728: wide.
      {800, 132, {3200, 1600, 1080}, -1},
      // 64 columns alone count, but are narrower than half: wide.
      {288, 132, {1152, -1, -1}, -1},
      // 192 cannot run the launch: 128 at 640 of 768 (0.83).
      {288, 132, {1152, 576, -1}, 1},
      // One wave of wide tiles: the rules above, whatever the widths.
      {100, 132, {400, 200, 136}, -1},
      // C has at most 64 columns (a convolution of 64 filters, 784 row
      // tiles): every width needs one tile per row, the 64 columns 784 x
      // 64, a quarter of the wide kernel's work.
      {784, 132, {784, 784, 784}, 0},
      // At most 128 columns: 64 needs more tiles than the wide kernel,
      // 128 as many.
      {784, 132, {1568, 784, 784}, 1}};
  for (const Choice &c : waves) {
    ++cases;
    const int got =
        tawa::rt::narrow_choice(c.tiles, c.sms, c.narrow.data(),
                                static_cast<int>(c.narrow.size()), 256, widths);
    if (got != c.want)
      return fail("narrow_choice waves", c.tiles, c.sms, got, c.want);
  }
  // 2304^3: 9 x 18 wide tiles; 128 columns in 3 waves (384) tie with 192
  // in 2 (384): the ping-pong kernel of 128 columns where the K loop is
  // short, else the wider.
  {
    const int widths5[] = {64, 128, 144, 192, 208};
    const long long narrow[] = {648, 324, 288, 216, 216};
    const struct {
      unsigned pingpong;
      int trips, want;
    } ties[] = {{3, 36, 1}, {3, 48, 1}, {3, 49, 3},
                {3, 0, 3},  {0, 36, 3}, {1, 36, 3}};
    for (const auto &t : ties) {
      ++cases;
      const int got = tawa::rt::narrow_choice(162, 132, narrow, 5, 256, widths5,
                                              t.pingpong, t.trips);
      if (got != t.want)
        return fail("narrow_choice tie", t.pingpong, t.trips, got, t.want);
    }
  }
  // 2560^3: 10 x 20 wide tiles, 2 waves x 256 = 512; 128: 400 tiles, 4 x
  // 128 = 512; 144: 18 x 20 = 360, 3 x 144 = 432 (0.84); 192: 3 x 192 =
  // 576.
  {
    const int widths4[] = {64, 128, 144, 192};
    const long long narrow[] = {800, 400, 360, 280};
    ++cases;
    const int got = tawa::rt::narrow_choice(200, 132, narrow, 4, 256, widths4);
    if (got != 2)
      return fail("narrow_choice waves 144", 200, 132, got, 2);
  }
  // few_rows_choice: a launch of the few-rows twins that stores at most 48
  // rows takes the 128-column kernel for the 64-column one where its tiles
  // are at least an eighth of the SMs and the K loop is long (at least 128
  // trips), its trips are unknown (0), or the 64-column tiles are more than
  // half the SMs; a launch over row parts takes it where the K loop is long;
  // anything else keeps the choice.
  struct FewRows {
    int choice;
    long long rows;
    long long tiles128;
    int want;
    int trips = 0;
    bool row_parts = false;
  };
  const FewRows few[] = {
      {0, 16, 32, 1}, // 16 x 4096: 32 tiles of 128 columns
      {0, 48, 64, 1}, //
      {0, 49, 64, 0}, // more rows: the 64-column kernel
      {0, 0, 64, 0},  // not a few-rows launch
      {0, 16, 16, 0}, // 16 x 2048: fewer tiles than an eighth of 132
      {0, 16, 17, 1}, //
      {0, 16, -1, 0}, // the 128-column kernel cannot run it
      {1, 16, 32, 1}, // another choice stays
      {-1, 16, 32, -1},
      // Known trips: a short K loop keeps the 64-column kernel, which its
      // split halves; a long one, or 64-column tiles past half the SMs,
      // takes the 128-column one.
      {0, 16, 32, 0, 64},  // 16 x 4096 x 4096
      {0, 48, 32, 0, 127}, //
      {0, 48, 32, 1, 128}, // 48 x 4096 x 8192
      {0, 32, 64, 1, 64},  // 32 x 8192 x 4096: 128 tiles of 64 columns
      {0, 32, 33, 0, 64},  // 66 tiles of 64 columns: half the SMs
      {0, 32, 34, 1, 64},  //
      {0, 64, 64, 0, 256}, // more rows
      {0, 16, 16, 0, 256}, // too few tiles of 128 columns
      // Row parts: the rows stored do not count, the trips do.
      {0, 0, 64, 0, 64, true},   // 128 x 4096 x 4096
      {0, 0, 64, 0, 127, true},  //
      {0, 0, 64, 1, 172, true},  // 80 x 4096 x 11008
      {0, 80, 64, 1, 128, true}, //
      {0, 0, 16, 0, 256, true},  // too few tiles of 128 columns
      {2, 0, 64, 2, 256, true}}; // another choice stays
  for (const FewRows &c : few) {
    ++cases;
    tawa::rt::NarrowLaunch l;
    l.kernels = 3;
    l.cols[0] = 64, l.cols[1] = 128, l.cols[2] = 192;
    l.narrow_tiles[0] = 2 * c.tiles128, l.narrow_tiles[1] = c.tiles128;
    l.narrow_tiles[2] = c.tiles128;
    const int got = tawa::rt::few_rows_choice(c.choice, c.rows, 132, l, c.trips,
                                              c.row_parts);
    if (got != c.want)
      return fail("few_rows_choice", c.choice, c.rows * 1000 + c.trips, got,
                  c.want);
  }
  {
    // Other widths keep the choice.
    ++cases;
    tawa::rt::NarrowLaunch l;
    l.kernels = 2;
    l.cols[0] = 64, l.cols[1] = 192;
    l.narrow_tiles[0] = 64, l.narrow_tiles[1] = 32;
    if (const int got = tawa::rt::few_rows_choice(0, 16, 132, l); got != 0)
      return fail("few_rows_choice widths", 0, 16, got, 0);
  }
  // Row parts: a walk of 2 row parts per block row, trimmed to y_units
  // along y, visits each (column tile, row part) below the trim once; the
  // block row is the unit's row over 2, the part its row mod 2.
  for (int y_units = 1; y_units <= 8; ++y_units)
    for (int parts : {1, 4}) {
      const TileSchedule s(dim3(2, 4, 2), 8, true, 1, 1, 1, parts, 0, 2,
                           y_units);
      ++cases;
      const int x_tiles = 2 * parts;
      if (s.count() != x_tiles * y_units * 2)
        return fail("row parts count", y_units, parts, s.count(),
                    x_tiles * y_units * 2);
      std::vector<int> seen(x_tiles * 8 * 2, 0);
      for (int t = 0; t < s.count(); ++t) {
        const uint3 got = s.tile(t);
        const int x = static_cast<int>(got.x) * parts + s.part(t);
        const int y = static_cast<int>(got.y) * 2 + s.row_part(t);
        if (got.y >= 4 || y >= y_units || seen[(x * 8 + y) * 2 + got.z]++)
          return fail("row parts tile", t, y_units, x, y);
      }
    }
  // Row parts in clusters of two: the ranks of a unit take the two row
  // parts of one block row; where the parts along y are odd, the last
  // unit's second tile lies past the walk (in_grid false) and is given the
  // last part. Each (column tile, row part) below the trim once.
  for (int y_units = 1; y_units <= 8; ++y_units) {
    const TileSchedule s(dim3(2, 4, 2), 8, true, 2, 1, 1, 4, 0, 2, y_units);
    ++cases;
    const int units = 8 * ((y_units + 1) / 2) * 2;
    if (s.count() != units)
      return fail("cluster row parts count", y_units, 0, s.count(), units);
    std::vector<int> seen(8 * 8 * 2, 0);
    for (int t = 0; t < s.count(); ++t)
      for (int rank = 0; rank < 2; ++rank) {
        const uint3 got = s.tile(t, rank);
        const int x = static_cast<int>(got.x) * 4 + s.part(t);
        const int y = static_cast<int>(got.y) * 2 + s.row_part(t, rank);
        const bool in = s.in_grid(t, rank);
        if (in != (y < y_units) && !(!in && y == y_units - 1))
          return fail("cluster row parts in_grid", t, rank, y, y_units);
        if (!in)
          continue;
        if (got.y >= 4 || y >= y_units || seen[(x * 8 + y) * 2 + got.z]++)
          return fail("cluster row parts tile", t, rank, x, y);
      }
    for (int i = 0; i < 8 * y_units * 2; ++i)
      if (seen[((i / 2 / y_units) * 8 + (i / 2) % y_units) * 2 + i % 2] != 1)
        return fail("cluster row parts cover", y_units, i, 0, 1);
  }
  {
    // The across walk keeps its row parts.
    ++cases;
    const TileSchedule s =
        TileSchedule::across(dim3(3, 2, 1), 8, true, 1, 1, 256, 192, 0, 2, 3);
    if (s.count() != 4 * 3)
      return fail("across row parts", 3, 2, s.count(), 12);
  }
  // fewer_column_tiles: with A of at least 32 MiB, a launch whose choice
  // fills at most a wave and computes a sixth more columns than it stores
  // takes the wider kernel of fewer column tiles that computes the fewest,
  // unless its 64-column tiles run in clusters along x.
  struct Fewer {
    unsigned grid_x, grid_y;
    long long cols, a_bytes;
    bool x_cluster;
    int choice, want;
  };
  const long long MiB = 1ll << 20;
  const Fewer fewer[] = {
      {1, 64, 200, 64 * MiB, false, 1, 4},    // 8192 x 200: 128 -> 208
      {1, 64, 200, 16 * MiB, false, 1, 1},    // A small: kept
      {1, 64, 136, 64 * MiB, false, 1, 2},    // 8192 x 136: 128 -> 144
      {1, 32, 200, 32 * MiB, true, 0, 0},     // 4096 x 200 in x-clusters
      {1, 32, 200, 32 * MiB, false, 0, 4},    // 4096 x 200 without
      {2, 32, 320, 32 * MiB, false, 1, 1},    // 4096 x 320: no fewer columns
      {1, 32, 136, 32 * MiB, false, 0, 2},    // 4096 x 136: 64 -> 144
      {1, 32, 192, 32 * MiB, false, 0, 0},    // 4096 x 192: none for nothing
      {4, 64, 1000, 64 * MiB, false, -1, -1}, // wide: kept
      {1, 160, 200, 64 * MiB, false, 4, 4}};  // more than a wave: kept
  for (const Fewer &f : fewer) {
    ++cases;
    const tawa::rt::NarrowLaunch l =
        tawa::rt::narrow_launch(dim3(f.grid_x, f.grid_y, 1), 1, 1, 256,
                                {64, 128, 144, 192, 208}, f.cols, 0);
    const int got =
        tawa::rt::fewer_column_tiles(f.choice, l, 132, f.a_bytes, f.x_cluster);
    if (got != f.want)
      return fail("fewer_column_tiles", f.grid_y, f.cols, got, f.want);
  }
  // across_x_units: the column tiles of an across walk that store
  // anything; the trimmed walk visits each of them once.
  struct AcrossUnits {
    unsigned grid_x;
    int width;
    long long cols, offset;
    int want;
  };
  const AcrossUnits across_units[] = {
      {1, 208, 200, 0, 1},   {1, 208, 256, 0, 2}, {1, 144, 136, 0, 1},
      {2, 192, 320, 0, 2},   {2, 192, 512, 0, 3}, {2, 192, 1000, 0, 3},
      {1, 208, 300, 100, 1}, {4, 208, 0, 0, 5}};
  for (const AcrossUnits &c : across_units) {
    ++cases;
    const dim3 grid(c.grid_x, 3, 1);
    const int got =
        tawa::rt::across_x_units(grid, 256, c.width, c.cols, c.offset);
    if (got != c.want)
      return fail("across_x_units", c.grid_x, c.width, got, c.want);
    const TileSchedule s =
        TileSchedule::across(grid, 8, true, 1, 1, 256, c.width, got);
    std::vector<int> seen(got * 3, 0);
    for (int t = 0; t < s.count(); ++t) {
      const int part = s.part(t);
      if (part < 0 || part >= got)
        return fail("across trimmed part", c.grid_x, t, part, got);
      ++seen[s.tile(t).y * got + part];
    }
    for (int v : seen)
      if (v != 1)
        return fail("across trimmed cover", c.grid_x, c.width, v, 1);
  }
  // row_part_units: the 64-row parts of 128-row blocks that store anything.
  struct RowUnits {
    unsigned grid_y;
    long long rows, offset;
    int want;
  };
  const RowUnits units[] = {{2, 192, 0, 3},  {2, 160, 0, 3}, {2, 256, 0, 4},
                            {2, 1000, 0, 4}, {1, 16, 0, 1},  {3, 300, 40, 5},
                            {2, 0, 0, 1},    {2, 10, 20, 1}};
  for (const RowUnits &c : units) {
    ++cases;
    const int got =
        tawa::rt::row_part_units(dim3(4, c.grid_y, 1), 2, 64, c.rows, c.offset);
    if (got != c.want)
      return fail("row_part_units", c.grid_y, c.rows, got, c.want);
  }
  // choose_row_parts (no TAWA_ROW_PARTS): where the last 128-row tile row
  // stores 1-80 rows and the launch more than 64; or, with a K loop of at
  // least 128 trips, where the launch stores 65-255 rows.
  struct RowParts {
    unsigned grid_y;
    long long rows;
    bool want;
    int trips = 0;
  };
  const RowParts parts_cases[] = {
      {1, 64, false},       {1, 65, true},        {1, 80, true},
      {1, 81, false},       {1, 128, false},      {2, 129, true},
      {2, 192, true},       {2, 208, true},       {2, 209, false},
      {2, 256, false},      {3, 320, true},       {2, 4096, false},
      {1, 81, false, 127},  {1, 81, true, 128},   {1, 128, true, 256},
      {1, 64, false, 256},  {2, 240, true, 128},  {2, 256, false, 128},
      {3, 257, true, 128},  {3, 340, false, 128}, {3, 384, false, 128},
      {2, 4096, false, 128}, {2, 240, false, 64}};
  for (const RowParts &c : parts_cases) {
    ++cases;
    const bool got = tawa::rt::choose_row_parts(dim3(16, c.grid_y, 1), 128, 64,
                                                c.rows, 0, c.trips);
    if (got != c.want)
      return fail("choose_row_parts", c.grid_y, c.rows * 1000 + c.trips, got,
                  c.want);
  }
  {
    // An empty launch grid (a matrix of no columns) walks nothing; building
    // its walk divides by nothing.
    ++cases;
    const TileSchedule empty(dim3(0, 1, 1), 8, true, 1, 1, 1, 4, 0, 2, 1);
    const TileSchedule none(dim3(3, 0, 1), 8, true);
    if (empty.count() != 0 || none.count() != 0 ||
        tawa::rt::choose_row_parts(dim3(0, 1, 1), 128, 64, 100, 0, 64,
                                   empty.count(), 132))
      return fail("empty grid", empty.count(), none.count(), 0, 0);
  }
  {
    // A grid far wider than the stored columns: 2^30 blocks of 4 narrow
    // tiles each (2^32 in all), of which the 4 inside 256 columns are
    // walked.
    ++cases;
    const dim3 wide(1u << 30, 1, 1);
    const TileSchedule s(wide, 8, true, 1, 1, 1, 4,
                         tawa::rt::narrow_x_units(wide, 1, 4, 64, 256, 0));
    if (s.count() != 4)
      return fail("wide grid", s.count(), 4, 0, 0);
  }
  // choose_row_parts with the narrowest twin's tiles over the row parts
  // counted: where they fill at most a wave of 132 SMs, and more than 64
  // rows are stored.
  struct PartTiles {
    unsigned grid_y;
    long long rows, tiles;
    bool want;
  };
  const PartTiles part_tiles[] = {
      {1, 128, 128, true}, {1, 128, 132, true}, {1, 128, 133, false},
      {1, 96, 64, true},   {1, 64, 64, false},  {1, 100, 0, false},
      {2, 256, 128, true}, {2, 256, 256, false}};
  for (const PartTiles &c : part_tiles) {
    ++cases;
    const bool got = tawa::rt::choose_row_parts(dim3(16, c.grid_y, 1), 128, 64,
                                                c.rows, 0, 64, c.tiles, 132);
    if (got != c.want)
      return fail("choose_row_parts part tiles", c.rows, c.tiles, got, c.want);
  }
  // choose_row_cluster: the walk's tiles more than half of 132 SMs and at
  // most all, the row parts along y even, and one row of tiles or a last
  // part storing more than 32 of its 64 rows.
  struct RowCluster {
    unsigned grid_x;
    long long rows;
    bool want;
  };
  const RowCluster row_clusters[] = {
      {16, 128, true}, {12, 128, true},  {8, 128, false}, {17, 128, false},
      {16, 80, true},  {16, 150, false}, {4, 256, false}, {8, 256, true},
      {8, 200, false}, {8, 225, true},   {8, 224, false}};
  for (const RowCluster &c : row_clusters) {
    ++cases;
    const unsigned grid_y = static_cast<unsigned>((c.rows + 127) / 128);
    const TileSchedule walk(
        dim3(c.grid_x, grid_y, 1), 8, true, 1, 1, 1, 4, 0, 2,
        tawa::rt::row_part_units(dim3(c.grid_x, grid_y, 1), 2, 64, c.rows, 0));
    const bool got = tawa::rt::choose_row_cluster(walk, c.rows, 0, 64, 132);
    if (got != c.want)
      return fail("choose_row_cluster", c.grid_x, c.rows, got, c.want);
  }
  {
    // narrow_launch counts the row parts of the kernels in the mask only:
    // 192 x 4096 under 2 block rows of 256 columns, 3 row parts.
    ++cases;
    const tawa::rt::NarrowLaunch l = tawa::rt::narrow_launch(
        dim3(16, 2, 1), 1, 1, 256, {64, 128, 192}, 4096, 0, 3, 0b011);
    if (l.tiles != 32 || l.narrow_tiles[0] != 192 || l.narrow_tiles[1] != 96 ||
        l.narrow_tiles[2] != 44)
      return fail("narrow_launch row parts", l.tiles, l.narrow_tiles[0],
                  l.narrow_tiles[1], l.narrow_tiles[2]);
  }
  // The ordered walk of attention: every tile once; in order, x fastest;
  // longest first, within groups of (y, z), x descending, (y, z) fastest.
  for (dim3 grid : {dim3(16, 128, 1), dim3(1, 7, 3), dim3(128, 16, 1),
                    dim3(5, 9, 2), dim3(7, 1, 1)})
    for (bool longest : {false, true})
      for (int group : {1, 2, 3, 9, 64}) {
        ++cases;
        const tawa::rt::OrderedTileSchedule S(grid, longest, group);
        const uint32_t planes = grid.y * grid.z;
        std::vector<int> seen(grid.x * planes, 0);
        for (int t = 0; t < S.count(); ++t) {
          const uint3 u = S.tile(t);
          const uint32_t yz = u.y + grid.y * u.z;
          // The same walk with plain divisions.
          uint32_t x, p;
          if (longest) {
            const uint32_t g = t / (grid.x * group), first = g * group;
            const uint32_t in =
                planes - first < uint32_t(group) ? planes - first : group;
            const uint32_t r = t - g * grid.x * group;
            x = grid.x - 1 - r / in;
            p = first + r % in;
          } else {
            x = t % grid.x;
            p = t / grid.x;
          }
          if (u.x != x || yz != p)
            return fail("OrderedTileSchedule", t, group, u.x * 10000 + yz,
                        x * 10000 + p);
          if (u.x >= grid.x || yz >= planes || seen[u.x + grid.x * yz]++)
            return fail("OrderedTileSchedule cover", t, group, u.x, yz);
        }
      }
  std::printf("schedule: %ld cases ok\n", cases);
  return 0;
}
