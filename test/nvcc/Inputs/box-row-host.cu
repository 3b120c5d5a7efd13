// Host checks of the shifted boxes (tawa/runtime/edge_boxes.cuh). For every
// operand of 1..700 rows, boxes of 64, 128 and 256 rows at each tile's rows
// (tiles from row 0, or from row -32: a window above the matrix, which is
// not moved), and a stored matrix of as many rows, fewer or more: box_row
// keeps the box inside the operand where it can (or at most
// kBoxRowsPastFree rows past its end, where it is not moved), never moves it
// past the tile's first row, and covers every row the tile stores; the
// consumers' parts of the box (64 or 128 rows), but those rows_idle calls
// idle, store each of the tile's rows once, from the tile's first row on.
// Prints the number of cases; exits 1 at the first mismatch.
#include <tawa/runtime/edge_boxes.cuh>

#include <cstdio>
#include <vector>

// Tiles of `Rows` rows from row `start` (negative: a window that starts
// above the matrix), boxes of Rows, consumers of Part rows each.
template <int Rows, int Part>
static int check(int rows, int stored, int start, long *cases) {
  for (int r = start; r < stored + Rows; r += Rows) {
    const int b = tawa::rt::box_row<Rows>(r, rows, stored);
    const int first = r > 0 ? r : 0; // the first row the tile stores
    const int last = r + Rows < stored ? r + Rows : stored; // stored rows end
    // A window above the matrix is loaded as written.
    const bool fits = rows >= Rows && stored <= rows && r >= 0;
    const int past = tawa::rt::kBoxRowsPastFree;
    if (b > r || (fits && (b < 0 || b + Rows > rows + past)) ||
        ((!fits || r + Rows <= rows + past) && b != r) ||
        (first < last && (b + Rows < last || b > first))) {
      std::printf("MISMATCH box_row<%d>(%d, %d, %d) = %d\n", Rows, r, rows,
                  stored, b);
      return 1;
    }
    std::vector<int> times(r + Rows > 0 ? r + Rows : 0, 0);
    for (int c = 0; c < Rows / Part; ++c) {
      const int row0 = b + Part * c;
      if (tawa::rt::rows_idle<Part>(row0, r, stored))
        continue;
      bool any = false;
      for (int row = row0; row < row0 + Part; ++row)
        // The stores' filter: inside the matrix, from first_row = r on.
        if (row >= r && row >= 0 && row < stored) {
          ++times[row];
          any = true;
        }
      if (!any) {
        std::printf("MISMATCH rows_idle<%d>(%d, %d, %d) stores none\n", Part,
                    row0, r, stored);
        return 1;
      }
    }
    for (int row = first; row < last; ++row)
      if (times[row] != 1) {
        std::printf("MISMATCH row %d of tile %d (box %d, %d rows, %d stored) "
                    "stored %d times\n",
                    row, r, b, rows, stored, times[row]);
        return 1;
      }
    ++*cases;
  }
  return 0;
}

int main() {
  long cases = 0;
  for (int rows = 1; rows <= 700; ++rows)
    for (int stored : {rows, rows - 5, rows + 7, 1}) {
      if (stored < 1)
        continue;
      for (int start : {0, -32})
        if (check<64, 64>(rows, stored, start, &cases) ||
            check<128, 64>(rows, stored, start, &cases) ||
            check<128, 128>(rows, stored, start, &cases) ||
            check<256, 128>(rows, stored, start, &cases))
          return 1;
    }
  std::printf("box_row: %ld cases ok\n", cases);
  return 0;
}
