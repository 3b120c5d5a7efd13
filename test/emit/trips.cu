// A tile loop whose header reads only parameters and constants is counted
// before the walk, and the launch starts one CTA per SM even for fewer tiles
// (the split tail gives the CTAs past the tiles pieces); a header that reads
// a local of the code before the loop is not, and the launch starts no more
// CTAs than tiles.
// RUN: %tawa-rewrite %s -- %cuda-stub | grep -v CHECK | FileCheck %s
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;
using Out = tawa::Matrix<__nv_bfloat16>;

constexpr int kStep = 64;

__global__ void counted(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile narrow(off)
  for (int k0 = 0; k0 < A.cols; k0 += kStep) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

__global__ void uncounted(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  const int k_end = A.cols;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile narrow(off)
  for (int k0 = 0; k0 < k_end; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

void run(In A, In B, Out C) {
  dim3 grid(tawa::ceil_div(C.cols, 256), tawa::ceil_div(C.rows, 128));
  counted<<<grid, 128>>>(A, B, C);
  uncounted<<<grid, 128>>>(A, B, C);
}

// CHECK-LABEL: counted(In A, In B, Out C,
// CHECK:           int trips = 0;
// CHECK-NEXT:      for (int k0 = 0; k0 < A.cols; k0 += kStep) {
// CHECK-NEXT:        ++trips;
// CHECK-NEXT:      }
// CHECK:           for (tawa::rt::TileWork work = walk.first(trips); walk.valid(work);
// CHECK:         int trips = 0;
// CHECK:         for (tawa::rt::TileWork work = walk.first(trips); walk.valid(work);
// CHECK:       inline cudaError_t counted_launch(
// CHECK:           schedule.count(), schedule.cluster, &ctas, /*fill=*/true);
// CHECK-LABEL: uncounted(In A, In B, Out C,
// CHECK-NOT:   trips
// CHECK:           for (tawa::rt::TileWork work = walk.first(); walk.valid(work);
// CHECK-NOT:   trips
// CHECK:         for (tawa::rt::TileWork work = walk.first(); walk.valid(work);
// CHECK-NOT:   fill
// CHECK:       inline cudaError_t uncounted_launch(
// CHECK-NOT:   fill
// CHECK:       void run(
