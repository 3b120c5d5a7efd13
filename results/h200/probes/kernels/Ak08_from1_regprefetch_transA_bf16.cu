// Register-prefetch double buffering in the "sgemm_v3" tutorial form, on
// bf16: 128 x 128 x 16 block tile, 16 x 16 threads, 8 x 8 results per thread
// (two 4 x 4 quadrants, to avoid bank conflicts). A is transposed into
// s_a[k][m]; the loop starts at tile 1 and the last tile is computed after
// the loop. M, N multiples of 128, K a multiple of 16.
#include <cuda_runtime.h>
#include <cuda_bf16.h>

typedef __nv_bfloat16 bf16;

#define OFFSET(row, col, ld) ((row) * (ld) + (col))
#define FLOAT4(pointer) (reinterpret_cast<float4 *>(&(pointer))[0])
#define CFLOAT4(pointer) (reinterpret_cast<const float4 *>(&(pointer))[0])
#define FLOAT2(pointer) (reinterpret_cast<float2 *>(&(pointer))[0])

__global__ void bf16gemm_v3(const bf16 *__restrict__ a,
                            const bf16 *__restrict__ b,
                            float *__restrict__ c, const int M, const int N,
                            const int K) {
  const int BM = 128;
  const int BN = 128;
  const int BK = 16;
  const int TM = 8;
  const int TN = 8;

  const int bx = blockIdx.x;
  const int by = blockIdx.y;
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int tid = ty * blockDim.x + tx;

  __shared__ __align__(16) bf16 s_a[2][BK][BM];
  __shared__ __align__(16) bf16 s_b[2][BK][BN];

  __align__(16) bf16 r_load_a[8];
  __align__(16) bf16 r_load_b[8];
  __align__(8) bf16 r_comp_a[TM];
  __align__(8) bf16 r_comp_b[TN];
  float r_c[TM][TN] = {0.0};

  int load_a_smem_m = tid >> 1;        // 0..127
  int load_a_smem_k = (tid & 1) << 3;  // 0, 8
  int load_b_smem_k = tid >> 4;        // 0..15
  int load_b_smem_n = (tid & 15) << 3; // 0..120

  int load_a_gmem_m = by * BM + load_a_smem_m;
  int load_b_gmem_n = bx * BN + load_b_smem_n;

  {
    int load_a_gmem_k = load_a_smem_k;
    int load_a_gmem_addr = OFFSET(load_a_gmem_m, load_a_gmem_k, K);
    int load_b_gmem_k = load_b_smem_k;
    int load_b_gmem_addr = OFFSET(load_b_gmem_k, load_b_gmem_n, N);
    FLOAT4(r_load_a[0]) = CFLOAT4(a[load_a_gmem_addr]);
    FLOAT4(r_load_b[0]) = CFLOAT4(b[load_b_gmem_addr]);

#pragma unroll
    for (int e = 0; e < 8; e++)
      s_a[0][load_a_smem_k + e][load_a_smem_m] = r_load_a[e];
    FLOAT4(s_b[0][load_b_smem_k][load_b_smem_n]) = FLOAT4(r_load_b[0]);
  }

  __syncthreads();

  const int ntiles = (K + BK - 1) / BK;
#pragma tawa tile
  for (int bk = 1; bk < ntiles; bk++) {

    int smem_sel = (bk - 1) & 1;
    int smem_sel_next = bk & 1;

    int load_a_gmem_k = bk * BK + load_a_smem_k;
    int load_a_gmem_addr = OFFSET(load_a_gmem_m, load_a_gmem_k, K);
    int load_b_gmem_k = bk * BK + load_b_smem_k;
    int load_b_gmem_addr = OFFSET(load_b_gmem_k, load_b_gmem_n, N);
    FLOAT4(r_load_a[0]) = CFLOAT4(a[load_a_gmem_addr]);
    FLOAT4(r_load_b[0]) = CFLOAT4(b[load_b_gmem_addr]);

#pragma unroll
    for (int tk = 0; tk < BK; tk++) {
      FLOAT2(r_comp_a[0]) = FLOAT2(s_a[smem_sel][tk][ty * TM / 2]);
      FLOAT2(r_comp_a[4]) = FLOAT2(s_a[smem_sel][tk][ty * TM / 2 + BM / 2]);
      FLOAT2(r_comp_b[0]) = FLOAT2(s_b[smem_sel][tk][tx * TN / 2]);
      FLOAT2(r_comp_b[4]) = FLOAT2(s_b[smem_sel][tk][tx * TN / 2 + BN / 2]);

#pragma unroll
      for (int tm = 0; tm < TM; tm++) {
#pragma unroll
        for (int tn = 0; tn < TN; tn++) {
          r_c[tm][tn] += __bfloat162float(r_comp_a[tm]) *
                         __bfloat162float(r_comp_b[tn]);
        }
      }
    }

#pragma unroll
    for (int e = 0; e < 8; e++)
      s_a[smem_sel_next][load_a_smem_k + e][load_a_smem_m] = r_load_a[e];
    FLOAT4(s_b[smem_sel_next][load_b_smem_k][load_b_smem_n]) =
        FLOAT4(r_load_b[0]);

    __syncthreads();
  }

  {
    int smem_sel = (ntiles - 1) & 1;
#pragma unroll
    for (int tk = 0; tk < BK; tk++) {
      FLOAT2(r_comp_a[0]) = FLOAT2(s_a[smem_sel][tk][ty * TM / 2]);
      FLOAT2(r_comp_a[4]) = FLOAT2(s_a[smem_sel][tk][ty * TM / 2 + BM / 2]);
      FLOAT2(r_comp_b[0]) = FLOAT2(s_b[smem_sel][tk][tx * TN / 2]);
      FLOAT2(r_comp_b[4]) = FLOAT2(s_b[smem_sel][tk][tx * TN / 2 + BN / 2]);

#pragma unroll
      for (int tm = 0; tm < TM; tm++) {
#pragma unroll
        for (int tn = 0; tn < TN; tn++) {
          r_c[tm][tn] += __bfloat162float(r_comp_a[tm]) *
                         __bfloat162float(r_comp_b[tn]);
        }
      }
    }
  }

#pragma unroll
  for (int i = 0; i < TM / 2; i++) {
    int store_c_gmem_m = by * BM + ty * TM / 2 + i;
    int store_c_gmem_n = bx * BN + tx * TN / 2;
    int store_c_gmem_addr = OFFSET(store_c_gmem_m, store_c_gmem_n, N);
    FLOAT4(c[store_c_gmem_addr]) = FLOAT4(r_c[i][0]);
    FLOAT4(c[store_c_gmem_addr + BN / 2]) = FLOAT4(r_c[i][4]);
  }
#pragma unroll
  for (int i = 0; i < TM / 2; i++) {
    int store_c_gmem_m = by * BM + BM / 2 + ty * TM / 2 + i;
    int store_c_gmem_n = bx * BN + tx * TN / 2;
    int store_c_gmem_addr = OFFSET(store_c_gmem_m, store_c_gmem_n, N);
    FLOAT4(c[store_c_gmem_addr]) = FLOAT4(r_c[i + TM / 2][0]);
    FLOAT4(c[store_c_gmem_addr + BN / 2]) = FLOAT4(r_c[i + TM / 2][4]);
  }
}

void bf16gemm(const bf16 *a, const bf16 *b, float *c, int M, int N, int K) {
  const int BM = 128, BN = 128, TM = 8, TN = 8;
  dim3 blockDim(BN / TN, BM / TM);
  dim3 gridDim((N + BN - 1) / BN, (M + BM - 1) / BM);
  bf16gemm_v3<<<gridDim, blockDim>>>(a, b, c, M, N, K);
}
