// Kernel templates in the tile vocabulary whose copies must keep the template's
// meaning: an unsigned parameter stays unsigned in the copy; a parameter named
// inside a macro's expansion is out of the copy's reach (a namesake at
// namespace scope would take its place), so that template is refused and the
// file left as it is.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// One run copies and rewrites the first and leaves the second as written.
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: FileCheck %s --check-prefix=KEPT < %t2.cu
#include <cuda_bf16.h>
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;
using Out = tawa::Matrix<__nv_bfloat16>;

// CHECK-LABEL: __global__ void unsigned_tile_64U(In A, In B, Out C) {
// CHECK: const unsigned m0 = blockIdx.y * static_cast<unsigned int>(64);
// CHECK: tawa::Accumulator<float, static_cast<unsigned int>(64), 256> acc;
template <unsigned BM>
__global__ void unsigned_tile(In A, In B, Out C) {
  const unsigned m0 = blockIdx.y * BM;
  tawa::Accumulator<float, BM, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<BM, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, blockIdx.x * 256, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, blockIdx.x * 256, acc);
}

constexpr int TILE_M = 128;
#define ROWS TILE_M
// DIAG: tile-template-refusals.cu:[[# @LINE + 8]]:17: {{warning|error}}: kernel template 'through_macro' in the tile vocabulary is not rewritten: no copy of it for 'through_macro<64>' can be made, which needs every template argument to be an integer or a type without pointer, reference or array parts, and every template parameter named in the kernel's own text, not inside a macro's expansion [tawa-unsupported]
// KEPT-LABEL: {{^}}template <int TILE_M>
// KEPT-NEXT: __global__ void through_macro(In A, In B, Out C) {
// KEPT-NEXT: tawa::Accumulator<float, ROWS, 256> acc;
// KEPT-NEXT: #pragma tawa tile
// KEPT: unsigned_tile_64U_launch(dim3(1, 1), 128, 0, 0, A, B, C);
// KEPT-NEXT: through_macro<64><<<dim3(1, 1), 128>>>(A, B, C);
template <int TILE_M>
__global__ void through_macro(In A, In B, Out C) {
  tawa::Accumulator<float, ROWS, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<ROWS, 64>(A, blockIdx.y * ROWS, k0);
    auto b = tawa::load<256, 64>(B, blockIdx.x * 256, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * ROWS, blockIdx.x * 256, acc);
}
// DIAG: note: kernel 'through_macro' is left unchanged

// A pointer type as an argument: its spelling in place of the name would
// bind differently (`const T` for T = int * is int *const).
// DIAG: tile-template-refusals.cu:[[# @LINE + 2]]:17: {{warning|error}}: kernel template 'with_pointer' in the tile vocabulary is not rewritten: no copy of it for 'with_pointer<const int *>' can be made
template <typename P>
__global__ void with_pointer(In A, In B, Out C, P p) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<256, 64>(B, blockIdx.x * 256, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 256, acc);
}

void run(In A, In B, Out C, const int *p) {
  with_pointer<const int *><<<dim3(1, 1), 128>>>(A, B, C, p);
  unsigned_tile<64><<<dim3(1, 1), 128>>>(A, B, C);
  through_macro<64><<<dim3(1, 1), 128>>>(A, B, C);
}
