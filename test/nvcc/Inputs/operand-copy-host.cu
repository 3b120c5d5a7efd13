// Host checks of the odd-pitch rule (tawa/runtime/operand_copy.cuh): which
// rows TMA reads slowly, and which launches copy them. Prints the number of
// cases; exits 1 at the first mismatch.
#include <tawa/runtime/operand_copy.cuh>

#include <cstdio>

template <class T> static tawa::Matrix<T> matrix(int rows, int cols, int ld) {
  return tawa::Matrix<T>{nullptr, rows, cols, ld};
}

int main() {
  struct Pitch {
    bool got, want;
    const char *what;
  } pitches[] = {
      {tawa::rt::odd_pitch(matrix<const __nv_bfloat16>(3000, 3000, 3000)), true,
       "bf16 ld 3000 (6000 bytes)"},
      {tawa::rt::odd_pitch(matrix<const __nv_bfloat16>(3000, 3000, 3008)),
       false, "bf16 ld 3008 (6016 bytes)"},
      {tawa::rt::odd_pitch(matrix<const __nv_bfloat16>(3000, 3000, 3024)),
       false, "bf16 ld 3024 (6048 bytes)"},
      {tawa::rt::odd_pitch(matrix<const __nv_bfloat16>(1, 3000, 3000)), false,
       "one row"},
      {tawa::rt::odd_pitch(matrix<const float>(100, 100, 100)), true,
       "fp32 ld 100 (400 bytes)"},
      {tawa::rt::odd_pitch(matrix<const float>(100, 100, 104)), false,
       "fp32 ld 104 (416 bytes)"},
  };
  struct Pays {
    long long m, n;
    bool want;
  } launches[] = {{3000, 3000, false}, {3200, 3200, true},  {5000, 5000, true},
                  {3000, 5000, true},  {64, 100000, false}, {0, 5000, false},
                  {16384, 1800, true}, {16384, 1700, false}};
  int cases = 0;
  for (const Pitch &p : pitches) {
    ++cases;
    if (p.got != p.want) {
      std::printf("MISMATCH odd_pitch %s: %d, want %d\n", p.what, p.got,
                  p.want);
      return 1;
    }
  }
  for (const Pays &l : launches) {
    ++cases;
    if (tawa::rt::odd_pitch_copy_pays(l.m, l.n) != l.want) {
      std::printf("MISMATCH odd_pitch_copy_pays(%lld, %lld), want %d\n", l.m,
                  l.n, l.want);
      return 1;
    }
  }
  std::printf("operand copy: %d cases ok\n", cases);
  return 0;
}
