// The beta term added under a test of beta ('beta-updates.cu') in the
// register-blocked front end: 'float v = alpha * acc[i][j]; if (beta !=
// 0.0f) v += beta * C[i]; C[i] = v;', with C of float or of bf16
// (converted both ways). The value reads as the choice on beta that 'beta
// == 0 ? x : x + beta * C[i]' makes. Refused: the term added where beta is
// 0, a term that reads the local itself or another element of C, and a
// local changed after the update. (The outputs are checked without this
// file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub -I%S 2>&1 | FileCheck %s --check-prefix=DIAG2 --implicit-check-not=error:
#include "Inputs/blocked-64.h"

// A float C.
// CHECK-LABEL: /// 'float_c' in the tile vocabulary: C = alpha * A * B + beta * C (C not
// CHECK:      tawa::store(C, m0, n0,
// CHECK-NEXT:             beta == 0.0f
// CHECK-NEXT:                 ? alpha * acc
// CHECK-NEXT:                 : alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
__global__ void float_c(const bf16 *A, const bf16 *B, float *C, int M, int N,
                        int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  EACH {
    AT {
      float v = alpha * acc[i][j];
      if (beta != 0.0f)
        v += beta * C[r * N + c];
      C[r * N + c] = v;
    }
  }
}

// A bf16 C, read and written through conversions.
// CHECK-LABEL: /// 'bf16_c' in the tile vocabulary: C = alpha * A * B + beta * C (C not
// CHECK:      tawa::store(C, m0, n0,
// CHECK-NEXT:             beta == 0.0f
// CHECK-NEXT:                 ? alpha * acc
// CHECK-NEXT:                 : alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
__global__ void bf16_c(const bf16 *A, const bf16 *B, bf16 *C, int M, int N,
                       int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  EACH {
    AT {
      float v = alpha * acc[i][j];
      if (beta != 0.0f)
        v += beta * __bfloat162float(C[r * N + c]);
      C[r * N + c] = __float2bfloat16_rn(v);
    }
  }
}

// The term added where beta IS 0.
// DIAG: blocked-beta-updates.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void inverted(const bf16 *A, const bf16 *B, float *C, int M, int N,
                         int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  EACH {
    AT {
      float v = alpha * acc[i][j];
      if (beta == 0.0f)
        v += beta * C[r * N + c];
      C[r * N + c] = v;
    }
  }
}

// The added term reads the local itself.
// DIAG: blocked-beta-updates.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void self_term(const bf16 *A, const bf16 *B, float *C, int M, int N,
                          int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  EACH {
    AT {
      float v = alpha * acc[i][j];
      if (beta != 0.0f)
        v += beta * v;
      C[r * N + c] = v;
    }
  }
}

// The term reads the element of C in the next column.
// DIAG: blocked-beta-updates.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void other_element(const bf16 *A, const bf16 *B, float *C, int M,
                              int N, int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  EACH {
    AT {
      float v = alpha * acc[i][j];
      if (beta != 0.0f)
        v += beta * C[r * N + c + 1];
      C[r * N + c] = v;
    }
  }
}

// The local changed again after the update on beta.
// DIAG: blocked-beta-updates.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void changed_again(const bf16 *A, const bf16 *B, float *C, int M,
                              int N, int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  EACH {
    AT {
      float v = alpha * acc[i][j];
      if (beta != 0.0f)
        v += beta * C[r * N + c];
      v *= 2.0f;
      C[r * N + c] = v;
    }
  }
}

// The refused kernels stay as written, their pragmas refused again.
// DIAG2-COUNT-4: warning: this loop does not match a liftable pattern
