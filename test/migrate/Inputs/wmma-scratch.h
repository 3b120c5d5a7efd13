// A 64 x 64 WMMA GEMM of four warps, each 2 x 2 fragments of 16 x 16 from
// tiles of A and B staged in shared memory: the macros of the tests of a
// scratch each warp reuses for its fragments (scratch-reuse*.cu).
#define SCRATCH_PROLOGUE                                                       \
  __shared__ half As[64][16];                                                  \
  __shared__ half Bs[16][64];                                                  \
  __shared__ float scratch[4][16 * 16];                                        \
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;                  \
  const int wr = (warp / 2) * 32, wc = (warp % 2) * 32;                        \
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;                    \
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];      \
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];      \
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];              \
  for (int i = 0; i < 2; ++i)                                                  \
    for (int j = 0; j < 2; ++j)                                                \
      wmma::fill_fragment(acc[i][j], 0.0f);
#define SCRATCH_LOOP                                                           \
  for (int k = 0; k < K; k += 16) {                                            \
    for (int e = threadIdx.x; e < 64 * 16; e += 128) {                         \
      As[e / 16][e % 16] = A[(row0 + e / 16) * K + k + e % 16];                \
      Bs[e / 64][e % 64] = B[(k + e / 64) * N + col0 + e % 64];                \
    }                                                                          \
    __syncthreads();                                                           \
    for (int i = 0; i < 2; ++i)                                                \
      wmma::load_matrix_sync(a[i], &As[wr + i * 16][0], 16);                   \
    for (int j = 0; j < 2; ++j)                                                \
      wmma::load_matrix_sync(b[j], &Bs[0][wc + j * 16], 64);                   \
    for (int i = 0; i < 2; ++i)                                                \
      for (int j = 0; j < 2; ++j)                                              \
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);                      \
    __syncthreads();                                                           \
  }
