//===- tawa/runtime/schedule.cuh - persistent tile walks ------------------===//
//
// A rewritten kernel walks the tiles of the original launch grid: tile
// (x, y, z) is the work the original kernel did in block (x, y, z). With a
// persistent grid each CTA takes tiles t = blockIdx.x, blockIdx.x + gridDim.x,
// ... in a grouped raster order: `group` consecutive tiles along one grid
// dimension before the next step along the other, so the CTAs running at the
// same time share their operand tiles in L2 (the order of Triton's grouped
// matmul; "raster" in CUTLASS).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "arch.cuh"
#include "launch.cuh"

#include <initializer_list>

namespace tawa::rt {

/// Division of 0 <= n < 2^31 by a divisor fixed before the launch, as one
/// multiply and a shift: with l = ceil(log2 d) and m = ceil(2^(31+l) / d),
/// floor(n / d) = floor(n m / 2^(31+l)) (Granlund and Montgomery, "Division by
/// invariant integers using multiplication", PLDI 1994, theorem 4.2 with
/// N = 31); m < 2^32. A hardware-free integer division costs some twenty
/// instructions, and the tile walk divides on every tile.
struct FastDivisor {
  uint32_t d = 1;
  uint32_t mul = 1u << 31;
  uint32_t shift = 31;

  FastDivisor() = default;
  /// `divisor` >= 1; 0 (the extent of an empty walk, which divides nothing)
  /// is taken as 1, so that an empty launch grid is no division by zero.
  __host__ __device__ explicit FastDivisor(uint32_t divisor)
      : d(divisor ? divisor : 1) {
    divisor = d;
    uint32_t l = 0;
    while ((uint64_t{1} << l) < divisor)
      ++l;
    mul = static_cast<uint32_t>(((uint64_t{1} << (31 + l)) + divisor - 1) /
                                divisor);
    shift = 31 + l;
  }
  /// floor(n / d) for 0 <= n < 2^31.
  __host__ __device__ uint32_t div(uint32_t n) const {
    return static_cast<uint32_t>((static_cast<uint64_t>(n) * mul) >> shift);
  }
};

struct TileSchedule {
  /// The tiles walked: the original launch grid, one tile per original
  /// block, or with merged tiles its blocks in groups of merge_x x merge_y
  /// (the last group of a dimension may reach past the grid).
  dim3 tiles;
  int group = 1;       ///< tiles per raster group, >= 1
  bool along_y = true; ///< group along grid y (rows of tiles), else along x
  /// CTAs of a thread-block cluster, which take `cluster` tiles adjacent in
  /// y together (one each), or in x where `cluster_x`: the walk's units are
  /// such groups of tiles. A group reaching past the grid holds tiles beyond
  /// it, which keep their peer's pace but store nothing (in_grid).
  int cluster = 1;
  /// The cluster's tiles lie side by side along x (whole tiles, or narrow
  /// parts of one block's tile), so that its CTAs compute the same rows and
  /// share A's tile; else they lie along y and share B's.
  bool cluster_x = false;
  /// Blocks of the original grid per tile along x and y (the shape clause).
  int merge_x = 1, merge_y = 1;
  /// Narrow tiles: CTA tiles per merge_x x merge_y blocks, side by side
  /// along x (TileShape.h, NarrowTiles).
  int parts = 1;
  /// Row parts: CTA tiles per block along y, one above the other (the
  /// few-rows twins' walk over every row of a launch; TileShape.h,
  /// NarrowTiles::FewRows). Only with merge_y 1. With a cluster, its CTAs
  /// take adjacent row parts (NarrowTiles::FewRowsClusters).
  int row_parts = 1;

  /// Computes the walk's divisors (on the host, before the launch) for the
  /// original launch grid `grid`, whose block count is < 2^31. With
  /// `x_units` > 0, the walk keeps only the first x_units tiles along x
  /// (narrow_x_units: the others lie past the stored matrix's columns), with
  /// `y_units` > 0 the first y_units along y (row_part_units). `cluster_x`
  /// groups the cluster's tiles along x.
  __host__ __device__ TileSchedule(dim3 grid, int group, bool along_y,
                                   int cluster = 1, int merge_x = 1,
                                   int merge_y = 1, int parts = 1,
                                   int x_units = 0, int row_parts = 1,
                                   int y_units = 0, bool cluster_x = false)
      : tiles(0, (grid.y + merge_y - 1) / merge_y * row_parts, grid.z),
        group(group), along_y(along_y), cluster(cluster), cluster_x(cluster_x),
        merge_x(merge_x), merge_y(merge_y), parts(parts), row_parts(row_parts),
        per_part(parts), per_row_part(row_parts) {
    // Counted in 64 bits and trimmed first: a grid far wider than the
    // stored columns has more narrow tiles than 32 bits hold, of which only
    // the x_units inside are walked.
    const uint64_t x = static_cast<uint64_t>((grid.x + merge_x - 1) / merge_x) *
                       static_cast<uint64_t>(parts);
    tiles.x = static_cast<uint32_t>(
        x_units > 0 && static_cast<uint64_t>(x_units) < x ? x_units : x);
    if (y_units > 0 && static_cast<uint32_t>(y_units) < tiles.y)
      tiles.y = y_units;
    const uint32_t X = cluster_x ? (tiles.x + cluster - 1) / cluster : tiles.x;
    const uint32_t Y = cluster_x ? tiles.y : (tiles.y + cluster - 1) / cluster;
    rows = along_y ? Y : X;
    cols = along_y ? X : Y;
    units = X * Y * tiles.z;
    plane = FastDivisor(X * Y);
    band = FastDivisor(group * cols);
    in_group = FastDivisor(group);
    // The last band holds the rows left over when `group` does not divide
    // them.
    in_last = FastDivisor(rows % group ? rows % group : group);
  }

  /// Units (tiles, or groups of `cluster` tiles) in the walk.
  __host__ __device__ int count() const { return static_cast<int>(units); }

  /// A walk of narrow CTA tiles of `width` columns side by side across the
  /// `block_cols` x grid.x columns of the original launch `grid`, whose
  /// blocks merge `merge_y` along y (the narrow kernels whose width does not
  /// divide the wide tile's, TileMerge::Across in TileShape.h): tile(t).x is
  /// 0 and part(t) is the column tile c, at c `width` columns from block
  /// 0's windows. The last column tile may reach past the launch's columns
  /// (narrow_walk_exact says where that stores nothing more). With
  /// `x_units` > 0 the walk keeps the first x_units column tiles
  /// (across_x_units: the others lie past the stored matrix's columns);
  /// `row_parts` and `y_units` as for the constructor.
  __host__ __device__ static TileSchedule
  across(dim3 grid, int group, bool along_y, int cluster, int merge_y,
         int block_cols, int width, int x_units = 0, int row_parts = 1,
         int y_units = 0) {
    const long long cols = static_cast<long long>(grid.x) * block_cols;
    return TileSchedule(dim3(1, grid.y, grid.z), group, along_y, cluster,
                        /*merge_x=*/1, merge_y,
                        static_cast<int>((cols + width - 1) / width), x_units,
                        row_parts, y_units);
  }

  /// The original block whose work the tile of cluster rank `rank` in the
  /// t-th unit of the walk starts with, 0 <= t < count(). A tile past the
  /// grid (in_grid false) is given the grid's last row of tiles (last column
  /// with `cluster_x`), so that it loads the operand its peer shares and the
  /// kernel's code runs for a block of the original launch; it stores
  /// nothing.
  __host__ __device__ uint3 tile(int t, int rank = 0) const {
    const uint3 c = cell(t, rank);
    return make_uint3(per_part.div(c.x) * merge_x,
                      per_row_part.div(c.y) * merge_y, c.z);
  }

  /// Whether the tile of cluster rank `rank` in the t-th unit lies in the
  /// walked grid. Where the tiles along y (x with `cluster_x`) are not a
  /// multiple of `cluster`, the last unit of each column (row) holds tiles
  /// past it, which must store
  /// nothing: the original launch wrote nothing there, though the stored
  /// matrix may go on (a launch over part of it).
  __host__ __device__ bool in_grid(int t, int rank = 0) const {
    const uint3 u = unit(t);
    return cluster_x ? u.x * static_cast<uint32_t>(cluster) + rank < tiles.x
                     : u.y * static_cast<uint32_t>(cluster) + rank < tiles.y;
  }

  /// The part of its blocks' tile that the tile of cluster rank `rank` in
  /// the t-th unit computes, 0 <= part < parts (0 without narrow tiles).
  __host__ __device__ int part(int t, int rank = 0) const {
    const uint32_t x = cell(t, rank).x;
    return static_cast<int>(x - per_part.div(x) * per_part.d);
  }

  /// The row part of its block's tile that the tile of cluster rank `rank`
  /// in the t-th unit computes, 0 <= row_part < row_parts (0 without row
  /// parts); that of the tile tile(t, rank) starts with.
  __host__ __device__ int row_part(int t, int rank = 0) const {
    const uint32_t y = cell(t, rank).y;
    return static_cast<int>(y - per_row_part.div(y) * per_row_part.d);
  }

private:
  uint32_t rows = 0, cols = 0, units = 0;
  FastDivisor plane, band, in_group, in_last, per_part, per_row_part;

  /// The walked tile of cluster rank `rank` in the t-th unit, in the
  /// tiles' own coordinates; one past the grid is given the grid's last
  /// along the cluster's direction.
  __host__ __device__ uint3 cell(int t, int rank) const {
    uint3 u = unit(t);
    const uint32_t c = static_cast<uint32_t>(cluster);
    if (cluster_x) {
      u.x = u.x * c + rank;
      if (u.x >= tiles.x)
        u.x = tiles.x - 1;
    } else {
      u.y = u.y * c + rank;
      if (u.y >= tiles.y)
        u.y = tiles.y - 1;
    }
    return u;
  }

  __host__ __device__ uint3 unit(int t) const {
    const uint32_t z = plane.div(t), r = t - z * plane.d;
    // Bands of `group` rows (of tiles along y, else columns); in a band the
    // row varies fastest.
    const uint32_t g = band.div(r), first = g * group;
    const uint32_t in = r - g * band.d;
    const FastDivisor &height = first + group > rows ? in_last : in_group;
    const uint32_t b = height.div(in), a = first + (in - b * height.d);
    return along_y ? make_uint3(b, a, z) : make_uint3(a, b, z);
  }
};

/// The walk of a kernel whose tiles (x, y, z) of one (y, z) share operands
/// and whose work may grow with x (attention: x the block of queries, y the
/// batch and head, whose keys and values every x reads; with a causal mask,
/// tile x reads x + 1 blocks of keys). In order (`longest_first` false) x
/// varies fastest, so the CTAs running together read the same keys and
/// values from L2. Longest first, the (y, z) go in groups of `group`: within
/// a group x descends and (y, z) varies fastest, so the longest tiles start
/// first and the short ones fill in at the end (the longest-processing-time
/// rule of list scheduling), while the CTAs running together still share
/// the keys and values of `group` (y, z) (FlashAttention-3's LPT scheduler
/// groups heads the same way). A group of about SMs / grid.x (y, z) fills
/// the machine with tiles of a few heads.
struct OrderedTileSchedule {
  dim3 tiles;
  bool longest_first = false;
  int group = 1;

  __host__ __device__ OrderedTileSchedule(dim3 grid, bool longest_first,
                                          int group = 1)
      : tiles(grid), longest_first(longest_first), group(group < 1 ? 1 : group),
        per_x(grid.x > 0 ? grid.x : 1), per_y(grid.y > 0 ? grid.y : 1),
        per_group(grid.x * static_cast<uint32_t>(group < 1 ? 1 : group)) {
    const uint32_t planes = grid.y * grid.z;
    const uint32_t g = static_cast<uint32_t>(this->group);
    last_first = planes / g * g;
    per_last = FastDivisor(planes % g ? planes % g : 1);
    per_full = FastDivisor(g);
  }

  /// Tiles in the walk.
  __host__ __device__ int count() const {
    return static_cast<int>(tiles.x * tiles.y * tiles.z);
  }

  /// The original block of the t-th tile of the walk, 0 <= t < count().
  __host__ __device__ uint3 tile(int t) const {
    uint32_t x, yz;
    if (longest_first) {
      const uint32_t g = per_group.div(t), first = g * group;
      const uint32_t r = t - g * per_group.d;
      // The last group may hold fewer (y, z).
      const FastDivisor &in = first >= last_first ? per_last : per_full;
      const uint32_t step = in.div(r);
      x = tiles.x - 1 - step;
      yz = first + (r - step * in.d);
    } else {
      yz = per_x.div(t);
      x = t - yz * per_x.d;
    }
    const uint32_t z = per_y.div(yz);
    return make_uint3(x, yz - z * per_y.d, z);
  }

private:
  FastDivisor per_x, per_y, per_group, per_last, per_full;
  uint32_t last_first = 0;
};

/// The group of (y, z) of a longest-first walk over `grid` that fills the
/// SMs of the current device: ceil(SMs / grid.x), into `*group`.
inline cudaError_t longest_first_group(dim3 grid, int *group) {
  int sms = 0;
  if (cudaError_t e = current_sm_count(&sms); e != cudaSuccess)
    return e;
  const int x = grid.x > 0 ? static_cast<int>(grid.x) : 1;
  *group = (sms + x - 1) / x;
  return cudaSuccess;
}

/// Whether a walk of tiles that merge `merge_x` x `merge_y` blocks of the
/// original launch grid `grid` stores only what that launch stores: where a
/// grid dimension does not divide into the merged tiles, the blocks past its
/// end must lie wholly outside the stored matrix (`cols` x `rows`
/// elements), where the store writes nothing. Block (x, y) stores at column
/// x * `tile_cols` + `col_offset`, row y * `tile_rows` + `row_offset`.
inline bool merged_walk_exact(dim3 grid, int merge_x, int merge_y,
                              long long cols, long long rows, int tile_cols,
                              int tile_rows, long long col_offset,
                              long long row_offset) {
  const bool x =
      grid.x % merge_x == 0 ||
      static_cast<long long>(grid.x) * tile_cols + col_offset >= cols;
  const bool y =
      grid.y % merge_y == 0 ||
      static_cast<long long>(grid.y) * tile_rows + row_offset >= rows;
  return x && y;
}

/// Whether the walk across the columns (TileSchedule::across) of CTA tiles
/// of `width` columns stores only what the original launch `grid` of blocks
/// of `block_cols` columns stores: its last column tile ends with the
/// launch's columns, or these reach the end of the stored matrix (`cols`
/// columns; block x stores from column x * `block_cols` + `col_offset`).
inline bool narrow_walk_exact(dim3 grid, int block_cols, int width,
                              long long cols, long long col_offset) {
  const long long launch = static_cast<long long>(grid.x) * block_cols;
  return launch % width == 0 || launch + col_offset >= cols;
}

/// The tiles along x of a narrow walk in `parts` of its wide tiles (of
/// merge_x blocks of the launch `grid`) that store anything: part p of wide
/// tile w stores from column (w parts + p) `width` + `col_offset`, so those
/// from ceil((cols - col_offset) / width) on lie past the stored matrix's
/// `cols` columns, and a launch whose grid is wider than the matrix would
/// give them SMs that the tiles inside need (4096 x 64 x 4096: 32 of the
/// 128 tiles of 128 x 64 store anything). TAWA_NARROW_TRIM=off in the
/// environment keeps them all (for measurements).
inline int narrow_x_units(dim3 grid, int merge_x, int parts, int width,
                          long long cols, long long col_offset) {
  static const int mode = env_switch("TAWA_NARROW_TRIM");
  const long long all =
      static_cast<long long>((grid.x + merge_x - 1) / merge_x) * parts;
  if (mode == 1 || cols <= col_offset || width <= 0)
    return static_cast<int>(all);
  const long long inside = (cols - col_offset + width - 1) / width;
  return static_cast<int>(inside < all ? inside : all);
}

/// The column tiles of a walk across the columns (TileSchedule::across) of
/// CTA tiles of `width` columns over the launch `grid` of blocks of
/// `block_cols` columns that store anything: those from ceil((cols -
/// col_offset) / width) on lie past the stored matrix's `cols` columns
/// (block 0 stores from column `col_offset`). A 4096 x 200 C under a launch
/// of 128 x 256 tiles walks 32 tiles of 128 x 208, not 64 of which half
/// store nothing. TAWA_NARROW_TRIM=off keeps them all.
inline int across_x_units(dim3 grid, int block_cols, int width, long long cols,
                          long long col_offset) {
  const long long launch = static_cast<long long>(grid.x) * block_cols;
  return narrow_x_units(dim3(1, 1, 1), 1,
                        static_cast<int>((launch + width - 1) / width), width,
                        cols, col_offset);
}

/// The row parts along y of a walk in `row_parts` parts of `part_rows` rows
/// of each block's tile (launch `grid`) that store anything: part p of block
/// row y stores from row (y row_parts + p) `part_rows` + `row_offset`, so
/// those from ceil((rows - row_offset) / part_rows) on lie past the stored
/// matrix's `rows` rows. At least 1.
inline int row_part_units(dim3 grid, int row_parts, int part_rows,
                          long long rows, long long row_offset) {
  const long long all = static_cast<long long>(grid.y) * row_parts;
  if (rows <= row_offset || part_rows <= 0)
    return 1;
  const long long inside = (rows - row_offset + part_rows - 1) / part_rows;
  return static_cast<int>(inside < all ? inside : all);
}

/// K-loop trips up to which a tie between two narrow kernels' waves goes to
/// the narrower where it runs as ping-pong kernel (narrow_choice).
constexpr int kPingPongTrips = 48;

/// Which kernel runs a launch of `tiles` wide tiles (of `wide_cols`
/// columns) on `sms` SMs, beside `kernels` narrow kernels (ascending widths
/// `cols`) whose walks have `narrow_tiles[i]` CTA tiles, or -1 where one
/// cannot run the launch: the narrowest whose tiles fill at most one wave;
/// else, where the wide tiles fill at most half a wave, the widest that can
/// run it; else -1, the wide kernel. Measured on the H100
/// (results/README.md, 128 x 256 wide tiles): 64 columns fastest at 16-32
/// wide tiles, 128 at 40-64 (64 columns alone 1.17-1.26x faster than the
/// wide kernel at 64), 192 at 72-96 (1.11-1.28x faster than the wide kernel,
/// bf16 and fp16); at 112 and 128 wide tiles, whose 192-column tiles take two
/// waves, the wide kernel. On an H200 (bf16 NT and TT,
/// results/h200/fixed-cost/width144/) 144 columns where they fill a wave and
/// 128 do not: 1536^3 (132 tiles) in 15.9 us against 18.6-19.0 as 96
/// 192-column tiles, 1536 x 1536 x 4096 in 29.7-30.7 against 36.3-36.7; and
/// by the rule for more than a wave below, 2560^3 (360 tiles) in 51.0-52.3
/// against 57.6-57.7 in two waves of wide tiles. 208 columns where they fill
/// a wave and 192 do not (results/h200/fixed-cost/more-widths/): 1792^3 (126
/// tiles) in 22.5-22.6 us against 25.0-25.2 as 98 wide tiles; and 2560^3 in
/// two waves of 208 (260 tiles) in 48.9-49.3.
///
/// A launch of more than a wave (`cols` given) runs a narrow kernel of at
/// least half the wide width, or one that needs no more tiles than the wide
/// kernel (the stored matrix has no more columns than its width: the same
/// rows of A read, less of the wide tile computed for nothing), where its
/// waves, each as long as its width,
/// add up to at most 0.85 of the wide kernel's (ties keep the wider): the
/// last wave is taken whole by that count, and a launch whose last wave of
/// wide tiles is nearly empty finishes sooner in narrower tiles that fill
/// their waves. 3000 x 3000 x 3008 (288 wide tiles, 2.2 waves) ran in 78.0
/// us as 128 x 192 tiles against 98.0 us, 256 x 22016 x 4096 in 82.2
/// against 95.6; 4096^3, whose 512 wide tiles fill 3.9 waves, is faster wide
/// (177 against 188 us; results/h100/idle-rows/). With this rule 3072^3 went
/// from 0.81 to 0.98 of cuBLAS, 512 x 11008 x 4096 from 0.78 to 0.90
/// (results/h100/wave-choice/). A tie goes to the narrower kernel instead
/// where it is in the mask `pingpong` (it runs as ping-pong kernel, whose
/// consumers store one tile while the other computes the next) and the K
/// loop runs at most kPingPongTrips `trips` (0: not counted): there the
/// epilogue of a tile is a large part of its time. On an H200 (bf16 NT,
/// results/h200/fixed-cost/ties/) 2304^3, three waves of 128 columns
/// against two of 192, ran in 40.1 us against 42.2, 2304 x 2304 x 512 in
/// 15.1 against 17.4, 2176^3 in 39.0 against 40.4; at 64 trips (256 x 22016
/// x 4096, H100) the 192-column kernel was 4% faster. Between 48 and 64
/// trips (2304 x 2304 x 3072-4096 and 2176 x 2176 x 3072-3584, H200,
/// results/h200/fixed-cost/crossover/) neither kernel leads in every layout:
/// in NT the 128-column one was 1-4% faster, in TT the 192-column one by
/// 0-3%.
inline int narrow_choice(long long tiles, int sms,
                         const long long *narrow_tiles, int kernels,
                         int wide_cols = 0, const int *cols = nullptr,
                         unsigned pingpong = 0, int trips = 0) {
  for (int i = 0; i < kernels; ++i)
    if (narrow_tiles[i] >= 0 && narrow_tiles[i] <= sms)
      return i;
  if (2 * tiles <= sms)
    for (int i = kernels - 1; i >= 0; --i)
      if (narrow_tiles[i] >= 0)
        return i;
  if (tiles <= sms || !cols || sms <= 0)
    return -1;
  const long long wide = (tiles + sms - 1) / sms * wide_cols;
  int best = -1;
  long long best_cost = 0;
  for (int i = kernels - 1; i >= 0; --i) {
    if (narrow_tiles[i] < 0 ||
        (2 * cols[i] < wide_cols && narrow_tiles[i] > tiles))
      continue;
    const long long cost = (narrow_tiles[i] + sms - 1) / sms * cols[i];
    const bool tie_to_pingpong = cost == best_cost && trips > 0 &&
                                 trips <= kPingPongTrips &&
                                 ((pingpong >> i) & 1u);
    if (best < 0 || cost < best_cost || tie_to_pingpong)
      best = i, best_cost = cost;
  }
  return best >= 0 && 20 * best_cost <= 17 * wide ? best : -1;
}

/// The tiles of a launch for each of its kernels (choose_narrow).
struct NarrowLaunch {
  static constexpr int kMaxKernels = 32;
  long long tiles = 0;        ///< wide tiles
  int wide_cols = 0;          ///< columns of a wide tile
  int kernels = 0;            ///< narrow kernels
  int cols[kMaxKernels] = {}; ///< columns of the i-th narrow kernel's tiles
  /// CTA tiles of the i-th narrow kernel's walk, -1 where it cannot run the
  /// launch.
  long long narrow_tiles[kMaxKernels] = {};
  /// Column tiles of the i-th narrow kernel's walk per row of tiles.
  long long x_units[kMaxKernels] = {};
  /// Columns the launch stores (of the stored matrix's, past block 0's
  /// column and inside the launch's), 0 where not known.
  long long stored_cols = 0;
};

/// The tiles of a launch of `grid` (the original launch grid) for the wide
/// kernel, whose tiles merge `merge_x` x `merge_y` blocks of `block_cols`
/// columns, and for narrow kernels of `columns` columns (at most
/// NarrowLaunch::kMaxKernels; more are left out). A width that divides the
/// wide tile cuts each in parts; one that does not walks across the
/// launch's columns (TileSchedule::across), and runs the launch only where
/// narrow_walk_exact (`cols`, `col_offset`: the stored matrix's columns and
/// block 0's store column). With `row_units` > 0 the walks of the narrow
/// kernels in the mask `row_part_kernels` (bit i: the i-th) have that many
/// tiles along y (the few-rows twins' row parts, row_part_units), the others
/// one per block row.
inline NarrowLaunch narrow_launch(dim3 grid, int merge_x, int merge_y,
                                  int block_cols,
                                  std::initializer_list<int> columns,
                                  long long cols, long long col_offset,
                                  long long row_units = 0,
                                  unsigned row_part_kernels = ~0u) {
  NarrowLaunch l;
  const long long wide_rows =
      static_cast<long long>((grid.y + merge_y - 1) / merge_y) * grid.z;
  l.tiles = (grid.x + merge_x - 1) / merge_x * wide_rows;
  const int tile_cols = merge_x * block_cols;
  l.wide_cols = tile_cols;
  const long long launch_cols = static_cast<long long>(grid.x) * block_cols;
  l.stored_cols = cols > col_offset ? cols - col_offset : 0;
  if (l.stored_cols > launch_cols)
    l.stored_cols = launch_cols;
  for (int c : columns) {
    if (l.kernels == NarrowLaunch::kMaxKernels)
      break;
    l.cols[l.kernels] = c;
    const bool parts = row_units > 0 && (row_part_kernels >> l.kernels) & 1u;
    const long long rows = parts ? row_units * grid.z : wide_rows;
    long long &x = l.x_units[l.kernels];
    long long &n = l.narrow_tiles[l.kernels++];
    if (tile_cols % c == 0)
      x = narrow_x_units(grid, merge_x, tile_cols / c, c, cols, col_offset);
    else if (narrow_walk_exact(grid, block_cols, c, cols, col_offset))
      x = across_x_units(grid, block_cols, c, cols, col_offset);
    else
      x = -1;
    n = x < 0 ? -1 : x * rows;
  }
  return l;
}

/// Rows stored up to which a launch that runs the few-rows twins
/// (tawa/TileShape.h, NarrowTiles::FewRows) prefers the 128-column tiles to
/// the 64-column ones (few_rows_choice).
constexpr long long kWiderFewRows = 48;

/// K-loop trips from which the 128-column few-rows twin is preferred where
/// the 64-column one could split its tiles itself (few_rows_choice).
constexpr int kWiderTrips = 128;

/// The narrow kernel a launch that runs the few-rows twins runs instead of
/// narrow_choice's `choice`: the 128-column kernel (index 1) where
/// narrow_choice took the 64-column one (index 0) and the 128-column tiles
/// number at least an eighth of the SMs, where
///   - the launch stores `rows`, at most kWiderFewRows, in the first rows of
///     its tiles, and either the K loop runs at least kWiderTrips `trips` or
///     the 64-column tiles are more than half the SMs (so that the split tail
///     cannot halve them; tawa/runtime/split_tail.cuh), or `trips` is
///     unknown (0);
///   - or it runs the twins over every row part of its tiles (`row_parts`)
///     and the K loop runs at least kWiderTrips trips.
/// The wider twin's slots hold more of B per slot of A's rows, and its fewer
/// tiles split into more K ranges: the time of a CTA's share of K falls
/// below that of the extra pieces only where K is long. On an H200 (bf16,
/// results/h200/skinny-choice/wider1/, results/h200/weak-shapes/):
/// 16-48 x 4096 x 16384 46.5-47.8 us against 53.9-58.0, 32 x 8192 x 4096
/// 26.4 against 28.0, 80 x 4096 x 11008 in row parts 0.91 of cuBLAS against
/// 0.63; but 48 x 4096 x 4096 0.85 of cuBLAS against 0.94, and row parts at
/// 112-128 x 4096 x 4096 8-11% slower.
inline int few_rows_choice(int choice, long long rows, int sms,
                           const NarrowLaunch &l, int trips = 0,
                           bool row_parts = false) {
  const bool widths = l.kernels >= 2 && l.cols[0] == 64 && l.cols[1] == 128;
  if (choice != 0 || !widths || l.narrow_tiles[1] < 0 ||
      8 * l.narrow_tiles[1] < sms)
    return choice;
  if (row_parts)
    return trips >= kWiderTrips ? 1 : choice;
  if (rows <= 0 || rows > kWiderFewRows)
    return choice;
  const bool long_k = trips == 0 || trips >= kWiderTrips;
  return long_k || 2 * l.narrow_tiles[0] > sms ? 1 : choice;
}

/// Whether a launch of `grid` (blocks of `tile_rows` rows, block row y
/// storing from row y `tile_rows` + `row_offset` of a matrix of `rows`
/// rows) that runs a narrow kernel with a few-rows twin runs that twin over
/// every part of `part_rows` rows of its tiles (row_part_units of them)
/// instead of the ping-pong twin's whole tiles: where the last row of tiles
/// stores at most 5/4 `part_rows` rows, and more than `part_rows` rows are
/// stored. On the H100 (bf16 NT, N = K = 4096; results/h100/row-parts/)
/// 144-208 rows ran in 22.6-24.9 us so against 25.8-28.4 in whole tiles,
/// 192 x 4096 x 11008 in 50.0 against 62.5; 80-112 rows (one row of tiles)
/// within 0.6 us either way; 240 rows, whose last row of tiles stores 112,
/// in 23.0 against 20.5 (edge.sh). Where the K loop runs at least
/// kWiderTrips `trips` (0: not counted), a launch of one row of tiles, or of
/// two whose last is not full, runs the row parts whatever its last row of
/// tiles stores: there the 128-column twin splits its tiles by K
/// (few_rows_choice). On an H200 (bf16 NT, TN and TT,
/// results/h200/weak-shapes/long-k/) 96-128 x 2048-8192 x 8192-16384 ran
/// 1.0-1.86x faster so (100 x 2048 x 16384 NT 0.46 -> 0.86 of cuBLAS, 128 x
/// 4096 x 16384 0.75 -> 0.94), 240 x 4096 x 8192 TN and TT 0.73-0.74 ->
/// 0.91-0.99 but NT 1.05 -> 0.97; 256 x 4096 x 8192, whose two rows of tiles
/// are full, 4-15% slower, so it keeps whole tiles. The choice of the narrow
/// kernel counts the row parts (choose_narrow). Any launch storing more
/// than `part_rows` rows also runs them where the narrowest few-rows twin's
/// tiles over its row parts, `part_tiles` (0: not counted), fill at most one
/// wave of the SMs: on an H200 (bf16, every layout,
/// results/h200/row-cluster/), with the cluster twin where it runs
/// (choose_row_cluster), 128 x 1024-3072 x 4096 ran 1.11-1.38x faster than in
/// the ping-pong twin's whole tiles, 128 x 4096 x 4096 1.06-1.14x, 112 x 4096
/// x 4096 1.04-1.13x, NN 96 x 4096 x 4096 and TN 128 x 4096 x 1024 within 5%
/// (run5/), 256 x 1024-2048 x 4096 and 256 x 1536 x 8192 1.12-1.34x (run6/);
/// 128 x 5120 x 4096
/// (160 tiles) ran 1.3-1.4x slower so (run2/), and keeps whole tiles.
/// `sms`: the SMs, 0 for those of the current device. TAWA_ROW_PARTS in the
/// environment overrides the choice (tests, measurements): "off" never, "force"
/// always.
inline bool choose_row_parts(dim3 grid, int tile_rows, int part_rows,
                             long long rows, long long row_offset,
                             int trips = 0, long long part_tiles = 0,
                             int sms = 0) {
  static const int mode = env_switch("TAWA_ROW_PARTS");
  if (mode != 0)
    return mode == 2;
  const long long launch = static_cast<long long>(grid.y) * tile_rows;
  long long stored = rows - row_offset;
  if (stored > launch)
    stored = launch;
  const long long last = stored % tile_rows;
  const bool long_k = trips >= kWiderTrips &&
                      (stored <= tile_rows || (stored < 2 * tile_rows && last));
  if (stored <= part_rows)
    return false;
  if ((last > 0 && 4 * last <= 5 * part_rows) || long_k)
    return true;
  if (part_tiles <= 0 || (sms == 0 && current_sm_count(&sms) != cudaSuccess))
    return false;
  return part_tiles <= sms;
}

/// Bytes of A from which a launch that re-reads A's rows once per column
/// tile prefers fewer column tiles (fewer_column_tiles), as the cluster
/// twin along x shares them (choose_x_cluster).
constexpr long long kReadAOnceBytes = 32ll << 20;

/// The narrow kernel a launch runs in place of `choice` (narrow_choice's)
/// where A holds at least kReadAOnceBytes (`a_bytes`): each column tile of
/// a walk reads all of A's rows of its row of tiles, and such an A no
/// longer stays in L2 between them. Where `choice` fills at most one wave
/// of the SMs, does not run in clusters along x (`x_cluster`, whose two
/// CTAs share A's tile), and computes at least a sixth more columns than
/// the launch stores (its last column tile mostly empty), the wider kernel
/// whose tiles fill at most a wave in fewer column tiles that computes the
/// fewest columns (the narrowest of those): its tiles, split by K where
/// they are few (tawa/runtime/split_tail.cuh), compute A's rows once and
/// less for nothing. On an H200 (bf16 NT, results/h200/across-trim/): 8192
/// x 200 x 4096 ran in 32.3 us as 64 tiles of 128 x 208 against 37.6-38.7
/// as 128 of 128 x 128, 8192 x 136 x 4096 in 36.4 (208 columns) against
/// 48.8, 4096 x 136 x 4096 in 24.4 as 32 tiles of 128 x 144 against 25.9 as
/// 96 of 128 x 64. Where the 64-column tiles run in clusters along x they
/// stayed faster (4096 x 200 x 4096 25.4 against 27.7 as 128 x 208), and
/// so did 128 x 64 tiles that compute no column for nothing (4096 x 192 x
/// 4096 22.6-23.0 against 25.5-26.1 as 128 x 128; x-cluster/widths/); with
/// A of 16 MiB the wider kernels lost (2000 x 200 x 4096 22.3 against
/// 23.8-25.9).
inline int fewer_column_tiles(int choice, const NarrowLaunch &l, int sms,
                              long long a_bytes, bool x_cluster) {
  auto computed = [&](int i) { return l.x_units[i] * l.cols[i]; };
  if (choice < 0 || a_bytes < kReadAOnceBytes || (choice == 0 && x_cluster) ||
      l.narrow_tiles[choice] > sms || l.stored_cols <= 0 ||
      6 * computed(choice) < 7 * l.stored_cols)
    return choice;
  int best = choice;
  for (int i = choice + 1; i < l.kernels; ++i)
    if (l.narrow_tiles[i] >= 0 && l.narrow_tiles[i] <= sms &&
        l.x_units[i] < l.x_units[choice] && computed(i) < computed(best))
      best = i;
  return best;
}

/// The kernel a launch runs (narrow_launch's arguments), into `*choice`: -1
/// for the wide kernel, else the index in `columns` (ascending) of a narrow
/// one, as narrow_choice says for the SMs of the current device. Where the
/// launch runs the few-rows twins of the 64- and 128-column kernels,
/// `few_rows` is the rows it stores, and few_rows_choice may take the wider
/// one; 0 where it does not. Where `*row_parts` (choose_row_parts), the
/// few-rows twins of the kernels in the mask `row_part_kernels` may run over
/// every row part of the tiles, `row_units` of them along y
/// (row_part_units): the choice counts those tiles, and where it takes a
/// kernel outside the mask, the launch runs whole tiles as chosen without
/// them; `*row_parts` is left true where the chosen kernel runs them.
/// (Without `row_parts`, `row_units` > 0 counts the row parts of the
/// kernels in the mask.) `trips`: the K loop's trips, where the launcher can
/// count them, else 0 (few_rows_choice). `a_bytes`: A's bytes, and
/// `x_cluster` whether the first narrow kernel would run in clusters along
/// x (choose_x_cluster): a launch of whole tiles (no few-rows twins, no row
/// parts) takes fewer column tiles where A is large (fewer_column_tiles).
/// TAWA_NARROW in the environment overrides the choice (tests): "off" the
/// wide kernel, "force" the narrowest, a column count the kernel of that
/// many columns where there is one; a forced kernel that cannot run the
/// launch leaves it to the wide one. Returns the CUDA error of the device
/// query.
inline cudaError_t
choose_narrow(dim3 grid, int merge_x, int merge_y, int block_cols,
              std::initializer_list<int> columns, long long cols,
              long long col_offset, int *choice, long long few_rows = 0,
              long long row_units = 0, unsigned row_part_kernels = 0,
              bool *row_parts = nullptr, int trips = 0, long long a_bytes = 0,
              bool x_cluster = false) {
  static const int mode = env_switch("TAWA_NARROW");
  static const int forced = env_number("TAWA_NARROW");
  if (row_parts && *row_parts && row_units > 0) {
    // With the row parts counted; where that takes a kernel without them,
    // the launch keeps the choice of whole tiles.
    if (cudaError_t e = choose_narrow(
            grid, merge_x, merge_y, block_cols, columns, cols, col_offset,
            choice, few_rows, row_units, row_part_kernels, nullptr, trips);
        e != cudaSuccess)
      return e;
    if (*choice >= 0 && (row_part_kernels >> *choice) & 1u)
      return cudaSuccess;
    *row_parts = false;
  }
  const NarrowLaunch l =
      narrow_launch(grid, merge_x, merge_y, block_cols, columns, cols,
                    col_offset, row_parts ? 0 : row_units, row_part_kernels);
  *choice = -1;
  int named = -1, i = 0;
  for (int c : columns) {
    if (i < l.kernels && c == forced)
      named = i;
    ++i;
  }
  if (mode == 1)
    return cudaSuccess;
  if ((mode == 2 && l.kernels > 0) || named >= 0) {
    const int k = mode == 2 ? 0 : named;
    *choice = l.narrow_tiles[k] >= 0 ? k : -1;
    return cudaSuccess;
  }
  int sms = 0;
  if (cudaError_t e = current_sm_count(&sms); e != cudaSuccess)
    return e;
  const bool parts =
      !row_parts && row_units > 0 && (row_part_kernels & 3u) == 3u;
  // The kernels whose few-rows twins run over row parts are those with
  // ping-pong twins: narrow(auto) makes both of each kernel of at most 128
  // columns (tawa/TileShape.h).
  int chosen = narrow_choice(l.tiles, sms, l.narrow_tiles, l.kernels,
                             l.wide_cols, l.cols, row_part_kernels, trips);
  // Whole tiles of more than 64 rows (neither the few-rows twins nor row
  // parts) re-read A once per column tile.
  if (few_rows == 0 && (row_parts || row_units == 0))
    chosen = fewer_column_tiles(chosen, l, sms, a_bytes, x_cluster);
  *choice = few_rows_choice(chosen, few_rows, sms, l, trips, parts);
  return cudaSuccess;
}

/// Whether a launch runs the cluster twin of the kernel it chose (wide or
/// narrow, where that has one; tawa/TileShape.h): where `odd_rows`, an
/// operand's rows are an odd number of 16 bytes apart. Such rows read five
/// 32-byte L2 sectors for every four of data and make the launch L2-bound;
/// two CTAs that share B's tile through a multicast halve B's reads. A
/// launch of one row of tiles (`grid` of blocks merged `merge_y` along y)
/// keeps its kernel: the twin would leave every cluster's second CTA idle.
/// On the H100 3000^3 ran in 92 us with the 128 x 192 twin against 132,
/// 2000 x 2000 x 2008 in 30 with the wide twin against 40; where rows were
/// aligned cluster(2) was 3-9% slower (results/h100/cluster-twin/,
/// results/h100/idle-rows/). The twin reads such operands in place, also
/// where copying them to aligned rows pays (odd_pitch_copy_pays): 5000^3 ran
/// in 393 us against 480 with the copy, 3000 x 5000 x 7000 in 320 against
/// 448 (results/h100/cluster-twin/copy1/). TAWA_CLUSTER in the environment
/// overrides the choice (tests): "off" never, "force" always.
inline bool choose_cluster(bool odd_rows, dim3 grid, int merge_y = 1) {
  static const int mode = env_switch("TAWA_CLUSTER");
  if (mode != 0)
    return mode == 2;
  // One row of tiles would leave every cluster's second CTA idle.
  return odd_rows && (grid.y + merge_y - 1) / merge_y >= 2;
}

/// Whether a launch that runs a few-rows twin over row parts
/// (choose_row_parts) in the walk `walk` (cluster 1) runs its cluster twin
/// (NarrowTiles::FewRowsClusters), whose two CTAs take adjacent row parts
/// and share B's tile through a multicast: where the walk's tiles fill more
/// than half a wave of the SMs and at most one, and every cluster has two
/// tiles (the row parts along y are even), in a launch of one row of tiles
/// or whose last row part stores more than half its `part_rows` rows (of
/// `rows`, from `row_offset` on). On an H200 (bf16, every layout,
/// results/h200/row-cluster/run5/) the cluster ran 0-21% faster there than
/// the twin without it, and nowhere more than 1% slower (128 x 4096 x 4096
/// NT 17.4 -> 16.9 us, cuBLAS 16.2; TT 120 x 2560 x 4096 21.4 -> 18.3). With
/// fewer tiles the twin without a cluster splits them by K
/// (tawa/runtime/split_tail.cuh): NT 128 x 1024 x 4096 ran in 12.9 us so,
/// 13.9 in clusters (run2/); with more than a wave a cluster waits for its
/// slower CTA: NT 160 x 8192 x 8192 ran in 113 us in clusters, 79 without
/// (run1/); where two rows of tiles end in a part of few rows, its cluster
/// waits for it: NT 200 x 2048 x 4096 ran in 21.0 us in clusters, 17.6
/// without (two-rows/). TAWA_ROW_CLUSTER in the environment overrides the
/// choice (tests, measurements): "off" never, "force" always. `sms`: the
/// SMs, 0 for those of the current device; false where that query fails.
inline bool choose_row_cluster(const TileSchedule &walk, long long rows,
                               long long row_offset, int part_rows,
                               int sms = 0) {
  static const int mode = env_switch("TAWA_ROW_CLUSTER");
  if (mode != 0)
    return mode == 2;
  const long long parts = walk.tiles.y;
  const long long last = rows - row_offset - (parts - 1) * part_rows;
  if (parts % 2 != 0 || (parts > 2 && 2 * last <= part_rows) ||
      (sms == 0 && current_sm_count(&sms) != cudaSuccess))
    return false;
  const long long tiles = walk.count();
  return 2 * tiles > sms && tiles <= sms;
}

/// Whether a launch that runs the 64-column ping-pong kernel over the walk
/// `walk` (cluster 1) runs its cluster twin along x instead
/// (NarrowTiles::PingPongClusters, tawa/TileShape.h), whose two CTAs take
/// adjacent column tiles of the same rows and share A's tile through a
/// multicast, halving A's reads from L2: where the walk's columns of tiles
/// are even (a cluster's second CTA past the last column would compute a
/// tile for nothing), its tiles fill more than half a wave of the SMs and at
/// most one, and either an operand's rows are an odd number of 16 bytes
/// apart (`odd_rows`: five 32-byte L2 sectors read for four) or A holds at
/// least kXClusterBytes (`a_bytes`). On an H200 (bf16 NT and TT,
/// results/h200/x-cluster/rule1/) the twin ran 1.06-1.10x faster at 1000^3
/// and 1.03-1.33x at 1000 x 1000 x 4000 (odd rows), 1.04-1.30x at 4096 x
/// 200-256 x 4096-8192 (A 32-64 MiB); with A of 8-16 MiB it gained or lost
/// up to 12% (4096 x 256 x 2048), and at 1024 x 1024 x 1024-4096 it lost
/// 6-25%; with an odd number of column tiles (4096 x 136 x 4096) 4-6%.
/// TAWA_X_CLUSTER in the environment overrides the choice (tests,
/// measurements): "off" never, "force" always. `sms`: the SMs, 0 for those
/// of the current device; false where that query fails.
constexpr long long kXClusterBytes = 32ll << 20;
inline bool choose_x_cluster(const TileSchedule &walk, bool odd_rows,
                             long long a_bytes, int sms = 0) {
  static const int mode = env_switch("TAWA_X_CLUSTER");
  if (mode != 0)
    return mode == 2;
  if (walk.tiles.x % 2 != 0 || (!odd_rows && a_bytes < kXClusterBytes) ||
      (sms == 0 && current_sm_count(&sms) != cudaSuccess))
    return false;
  const long long tiles = walk.count();
  return 2 * tiles > sms && tiles <= sms;
}

/// CTAs of a persistent launch for `units` units of `cluster` tiles each: one
/// per SM of the current device, in whole clusters, no more than the tiles
/// unless `fill` (a walk whose split tail gives the CTAs past the tiles
/// pieces of them, tawa/runtime/split_tail.cuh). Returns the CUDA error of
/// the device query.
inline cudaError_t persistent_ctas(int units, int cluster, int *ctas,
                                   bool fill = false) {
  int sms = 0;
  if (cudaError_t e = current_sm_count(&sms); e != cudaSuccess)
    return e;
  const int clusters = sms / cluster;
  *ctas = cluster * (units < clusters && !fill ? units : clusters);
  return cudaSuccess;
}

} // namespace tawa::rt
