// A launch over part of C whose grid has an odd number of tile rows, run by
// the cluster twins: the tiles past the grid in the last cluster must store
// nothing. Compiled with the rewritten examples/gemm (nvcc -include
// GEN/gemm.ws.cu); compares gemm_nt_launch with the kernel as written
// (gemm_nt_reference) on the same grid, C filled with a sentinel first.
// Exit status 1 on a mismatch. Shapes in elements.
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const int M = 512, N = 512, K = argc > 1 ? std::atoi(argv[1]) : 520;
  const dim3 grid(2, 3); // rows [0, 384) of C's 512, all 512 columns
  std::vector<__nv_bfloat16> a(M * K), b(N * K), sentinel(M * N);
  srand(1);
  for (auto &x : a)
    x = __float2bfloat16(rand() / float(RAND_MAX) - 0.5f);
  for (auto &x : b)
    x = __float2bfloat16(rand() / float(RAND_MAX) - 0.5f);
  for (auto &x : sentinel)
    x = __float2bfloat16(7.0f);
  __nv_bfloat16 *dA, *dB, *dC, *dR;
  cudaMalloc(&dA, a.size() * 2);
  cudaMalloc(&dB, b.size() * 2);
  cudaMalloc(&dC, sentinel.size() * 2);
  cudaMalloc(&dR, sentinel.size() * 2);
  cudaMemcpy(dA, a.data(), a.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, b.data(), b.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(dC, sentinel.data(), sentinel.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(dR, sentinel.data(), sentinel.size() * 2, cudaMemcpyHostToDevice);
  tawa::Matrix<const __nv_bfloat16> A{dA, M, K, K}, B{dB, N, K, K};
  tawa::Matrix<__nv_bfloat16> C{dC, M, N, N}, R{dR, M, N, N};
  cudaError_t e = gemm_nt_launch(grid, 128, 0, 0, A, B, C);
  gemm_nt_reference<<<grid, 128>>>(A, B, R);
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<__nv_bfloat16> c(M * N), r(M * N);
  cudaMemcpy(c.data(), dC, c.size() * 2, cudaMemcpyDeviceToHost);
  cudaMemcpy(r.data(), dR, r.size() * 2, cudaMemcpyDeviceToHost);
  int wrong_inside = 0, written_outside = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      const float x = __bfloat162float(c[i * N + j]);
      const float y = __bfloat162float(r[i * N + j]);
      if (i >= 384)
        written_outside += x != 7.0f;
      else
        wrong_inside += std::abs(x - y) > 2e-2f * (1.0f + std::abs(y));
    }
  std::printf("K %d: %d of %d elements inside the grid differ from the "
              "kernel as written, %d of %d past it were written: %s\n",
              K, wrong_inside, 384 * N, written_outside, (M - 384) * N,
              wrong_inside || written_outside ? "FAIL" : "PASS");
  return wrong_inside || written_outside ? 1 : 0;
}
