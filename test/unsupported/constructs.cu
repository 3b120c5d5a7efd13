// Constructs outside the accepted tile-kernel form are warnings at the
// construct; their kernels are left unchanged (here: all of them).
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: diff %s %t.cu
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;
using In = tawa::Matrix<const bf16>;
using Out = tawa::Matrix<bf16>;

__global__ void uses_tid(In A, In B, Out C) {
  // CHECK: constructs.cu:[[@LINE+1]]:18: warning: the code before the tile loop uses 'threadIdx'; the rewritten kernel gives threads other roles and a different block size, so only blockIdx, gridDim and the parameters may be used there [tawa-unsupported]
  const int t = (threadIdx.x);
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = t; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void extra_stmt(In A, In B, Out C, int *count) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    // CHECK: constructs.cu:[[@LINE+1]]:5: warning: statement not supported in a tile loop; the loop body may hold 'auto t = tawa::load<R, C>(...)' declarations, 'tawa::mma(...)' and 'tawa::mask(...)' calls, and declarations, assignments and '*=' of accumulators and row vectors [tawa-unsupported]
    ++*count;
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void local_matrix(In A, In B, Out C) {
  In A2 = A;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    // CHECK: constructs.cu:[[@LINE+1]]:34: warning: the matrix of 'tawa::load' must be a 'tawa::Matrix' parameter of the kernel (or 'param.batch(b)'), so that the launcher can build its tensor map [tawa-unsupported]
    auto a = tawa::load<128, 64>(A2, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void one_tile_two_layouts(In A, In B, Out C) {
  tawa::Accumulator<float, 64, 64> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<64, 64>(A, 0, k0);
    // CHECK: constructs.cu:[[@LINE+1]]:5: warning: tile 'a' is both operands of the mma, read once along its rows and once along its columns; load it twice [tawa-unsupported]
    tawa::mma(acc, a, a);
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void unused_tile(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    // CHECK: constructs.cu:[[@LINE+1]]:10: warning: tile 'c' is loaded but no 'tawa::mma' uses it [tawa-unsupported]
    auto c = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void no_store(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  // CHECK: constructs.cu:[[@LINE+1]]:3: warning: the accumulator 'acc' is never stored; expected 'tawa::store(C, row0, col0, acc)' after the loop [tawa-unsupported]
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
}

__global__ void nested(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
  if (A.rows > 0) {
#pragma tawa tile
    // CHECK: constructs.cu:[[@LINE+1]]:5: warning: the annotated loop must be a statement of the kernel body itself, not nested in another statement [tawa-unsupported]
    for (int k0 = 0; k0 < A.cols; k0 += 64) {
      auto a = tawa::load<128, 64>(A, 0, k0);
      auto b = tawa::load<256, 64>(B, 0, k0);
      tawa::mma(acc, a, tawa::transpose(b));
    }
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void collide(In A, In B, Out C) {
  // CHECK: constructs.cu:[[@LINE+1]]:13: warning: the name 'smem' is used by the rewritten kernel; rename this variable [tawa-unsupported]
  const int smem = 0;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = smem; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__host__ __device__ void helper(In A) {
// CHECK: constructs.cu:[[@LINE+1]]:14: warning: '#pragma tawa tile' must be inside a __global__ function [tawa-unsupported]
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

template <int BM>
// CHECK: constructs.cu:[[@LINE+1]]:17: warning: kernel template 'templated' in the tile vocabulary is not rewritten: tawa-rewrite rewrites a copy of it for each instantiation that a launch of this file makes with constant template arguments ('templated<...><<<...>>>(...)'); where there is one, 'tawa-rewrite --migrate' writes the copies, whose rewrite says why one is refused [tawa-unsupported]
__global__ void templated(In A, In B, Out C) {
  tawa::Accumulator<float, BM, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<BM, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

// The launcher builds tensor maps from the parameters the launch passes, and
// the persistent walk runs the prologue once per tile: a prologue that
// changes a parameter would compute something else than the kernel as
// written.
__global__ void moves_param(In A, In B, Out C) {
  // CHECK: constructs.cu:[[@LINE+1]]:3: warning: the code before the tile loop changes the parameter 'A'; the launcher builds the tensor maps from the values the launch passes, and the rewritten kernel runs this code once per tile: compute the new value into a variable of its own [tawa-unsupported]
  A.data += 64;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void bumps_param(In A, In B, Out C, int rows) {
  // CHECK: constructs.cu:[[@LINE+1]]:3: warning: the code before the tile loop changes the parameter 'rows'; {{.*}} [tawa-unsupported]
  ++rows;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < rows; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

// A cooperative consumer with no rows of C to store is 'idle'.
__global__ void idle_name(In A, In B, Out C) {
  // CHECK: constructs.cu:[[@LINE+1]]:13: warning: the name 'idle' is used by the rewritten kernel; rename this variable [tawa-unsupported]
  const int idle = 0;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = idle; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

// A name the kernel refers to from outside it, which an emitted local
// ('rank', a cluster CTA's rank) would shadow.
constexpr int rank = 0;
__global__ void outer_name(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  // CHECK: constructs.cu:[[@LINE+1]]:17: warning: the name 'rank' is used by the rewritten kernel; rename what it names [tawa-unsupported]
  for (int k0 = rank; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

// The launcher's choice of a cluster twin is 'cluster_twin'.
// CHECK: constructs.cu:[[@LINE+1]]:50: warning: the name 'cluster_twin' is used by the rewritten kernel; rename this variable [tawa-unsupported]
__global__ void twin_name(In A, In B, Out C, int cluster_twin) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = cluster_twin; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

// The ping-pong consumers count their tiles in 'turn'.
__global__ void turn_name(In A, In B, Out C) {
  // CHECK: constructs.cu:[[@LINE+1]]:13: warning: the name 'turn' is used by the rewritten kernel; rename this variable [tawa-unsupported]
  const int turn = 0;
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile schedule(pingpong) consumers(2)
  for (int k0 = turn; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<128, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

// The edge maps of A's last boxes are '<map>_edge'.
__global__ void edge_map_name(In A, In B, Out C) {
  // CHECK: constructs.cu:[[@LINE+1]]:13: warning: the name 'A_tensor_map_edge' is used by the rewritten kernel; rename this variable [tawa-unsupported]
  const int A_tensor_map_edge = 0;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = A_tensor_map_edge; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

// The transposed copy of a tf32 operand stored K x N is '<matrix>_transposed'.
__global__ void transposed_name(tawa::Matrix<const float> A,
                                tawa::Matrix<const float> B,
                                tawa::Matrix<float> C) {
  // CHECK: constructs.cu:[[@LINE+1]]:13: warning: the name 'B_transposed' is used by the rewritten kernel; rename this variable [tawa-unsupported]
  const int B_transposed = 0;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile precision(tf32)
  for (int k0 = B_transposed; k0 < A.cols; k0 += 32) {
    auto a = tawa::load<128, 32>(A, 0, k0);
    auto b = tawa::load<32, 256>(B, k0, 0);
    tawa::mma(acc, a, b);
  }
  tawa::store(C, 0, 0, acc);
}
