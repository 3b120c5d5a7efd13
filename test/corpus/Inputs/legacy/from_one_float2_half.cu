// A register-blocked fp16 GEMM in the form of the common double-buffering
// tutorials: the tile loop counts from 1, the code before it stages tile 0,
// each iteration loads tile bk into registers, multiplies tile bk - 1 from
// buffer (bk - 1) & 1 and stores the registers into buffer bk & 1, and the
// code after the loop multiplies the last tile from buffer 1 (where the
// tile count is even). 128 x 128 tiles of 8 x 8 results per thread, float
// C. M and N multiples of 128, K a multiple of 16.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define OFFSET(row, col, ld) ((row) * (ld) + (col))
#define FLOAT2(pointer) (reinterpret_cast<float2 *>(&(pointer))[0])
#define CFLOAT2(pointer) (reinterpret_cast<const float2 *>(&(pointer))[0])
#define FLOAT4(pointer) (reinterpret_cast<float4 *>(&(pointer))[0])

__global__ void hgemm_from_one(const __half *__restrict__ a,
                               const __half *__restrict__ b,
                               float *__restrict__ c, const int M, const int N,
                               const int K) {
  const int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  const int bx = blockIdx.x, by = blockIdx.y;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * blockDim.x + tx;

  __shared__ __half s_a[2][BK][BM];
  __shared__ __half s_b[2][BK][BN];

  __half r_load_a[4];
  __half r_load_b[4];
  float r_comp_a[TM];
  float r_comp_b[TN];
  float r_c[TM][TN] = {0.0};

  int load_a_smem_m = tid >> 1;
  int load_a_smem_k = (tid & 1) << 2;
  int load_b_smem_k = tid >> 5;
  int load_b_smem_n = (tid & 31) << 2;
  int load_a_gmem_m = by * BM + load_a_smem_m;
  int load_b_gmem_n = bx * BN + load_b_smem_n;

  {
    int load_a_gmem_k = load_a_smem_k;
    int load_a_gmem_addr = OFFSET(load_a_gmem_m, load_a_gmem_k, K);
    int load_b_gmem_k = load_b_smem_k;
    int load_b_gmem_addr = OFFSET(load_b_gmem_k, load_b_gmem_n, N);
    FLOAT2(r_load_a[0]) = CFLOAT2(a[load_a_gmem_addr]);
    FLOAT2(r_load_b[0]) = CFLOAT2(b[load_b_gmem_addr]);
    s_a[0][load_a_smem_k][load_a_smem_m] = r_load_a[0];
    s_a[0][load_a_smem_k + 1][load_a_smem_m] = r_load_a[1];
    s_a[0][load_a_smem_k + 2][load_a_smem_m] = r_load_a[2];
    s_a[0][load_a_smem_k + 3][load_a_smem_m] = r_load_a[3];
    FLOAT2(s_b[0][load_b_smem_k][load_b_smem_n]) = FLOAT2(r_load_b[0]);
  }
  __syncthreads();

#pragma tawa tile
  for (int bk = 1; bk < (K + BK - 1) / BK; bk++) {
    int smem_sel = (bk - 1) & 1;
    int smem_sel_next = bk & 1;

    int load_a_gmem_k = bk * BK + load_a_smem_k;
    int load_a_gmem_addr = OFFSET(load_a_gmem_m, load_a_gmem_k, K);
    int load_b_gmem_k = bk * BK + load_b_smem_k;
    int load_b_gmem_addr = OFFSET(load_b_gmem_k, load_b_gmem_n, N);
    FLOAT2(r_load_a[0]) = CFLOAT2(a[load_a_gmem_addr]);
    FLOAT2(r_load_b[0]) = CFLOAT2(b[load_b_gmem_addr]);

#pragma unroll
    for (int tk = 0; tk < BK; tk++) {
#pragma unroll
      for (int i = 0; i < TM; i++)
        r_comp_a[i] = __half2float(s_a[smem_sel][tk][ty * TM + i]);
#pragma unroll
      for (int j = 0; j < TN; j++)
        r_comp_b[j] = __half2float(s_b[smem_sel][tk][tx * TN + j]);
#pragma unroll
      for (int tm = 0; tm < TM; tm++) {
#pragma unroll
        for (int tn = 0; tn < TN; tn++) {
          r_c[tm][tn] = __fmaf_rn(r_comp_a[tm], r_comp_b[tn], r_c[tm][tn]);
        }
      }
    }

    s_a[smem_sel_next][load_a_smem_k][load_a_smem_m] = r_load_a[0];
    s_a[smem_sel_next][load_a_smem_k + 1][load_a_smem_m] = r_load_a[1];
    s_a[smem_sel_next][load_a_smem_k + 2][load_a_smem_m] = r_load_a[2];
    s_a[smem_sel_next][load_a_smem_k + 3][load_a_smem_m] = r_load_a[3];
    FLOAT2(s_b[smem_sel_next][load_b_smem_k][load_b_smem_n]) =
        FLOAT2(r_load_b[0]);

    __syncthreads();
  }

#pragma unroll
  for (int tk = 0; tk < BK; tk++) {
#pragma unroll
    for (int i = 0; i < TM; i++)
      r_comp_a[i] = __half2float(s_a[1][tk][ty * TM + i]);
#pragma unroll
    for (int j = 0; j < TN; j++)
      r_comp_b[j] = __half2float(s_b[1][tk][tx * TN + j]);
#pragma unroll
    for (int tm = 0; tm < TM; tm++) {
#pragma unroll
      for (int tn = 0; tn < TN; tn++) {
        r_c[tm][tn] = __fmaf_rn(r_comp_a[tm], r_comp_b[tn], r_c[tm][tn]);
      }
    }
  }

#pragma unroll
  for (int i = 0; i < TM; i++) {
    int store_c_gmem_m = by * BM + ty * TM + i;
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      int store_c_gmem_n = bx * BN + tx * TN + j;
      FLOAT4(c[OFFSET(store_c_gmem_m, store_c_gmem_n, N)]) = FLOAT4(r_c[i][j]);
    }
  }
}

void hgemm_from_one_run(const __half *A, const __half *B, float *C, int M,
                        int N, int K) {
  dim3 block(16, 16);
  dim3 grid(N / 128, M / 128);
  hgemm_from_one<<<grid, block>>>(A, B, C, M, N, K);
}
