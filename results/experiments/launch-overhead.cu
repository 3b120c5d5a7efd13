// Host time of one call of the rewritten example's gemm() against one
// cublasGemmEx on the same data, at a small shape where the host may bound
// the rate: N calls each, back to back on one stream, then one
// synchronization; prints microseconds per call (host wall time, and GPU
// time from events around the whole loop).
//
// nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
//   -Iexamples/gemm gen/gemm.ws.cu results/experiments/launch-overhead.cu \
//   -lcublas -o build/launch-overhead && build/launch-overhead [M N K [N]]
#include <gemm.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>

int main(int argc, char **argv) {
  const int m = argc > 3 ? std::atoi(argv[1]) : 1000;
  const int n = argc > 3 ? std::atoi(argv[2]) : 1016;
  const int k = argc > 3 ? std::atoi(argv[3]) : 512;
  const int calls = argc > 4 ? std::atoi(argv[4]) : 2000;
  __nv_bfloat16 *a, *b, *c;
  cudaMalloc(&a, sizeof(*a) * m * k);
  cudaMalloc(&b, sizeof(*b) * n * k);
  cudaMalloc(&c, sizeof(*c) * m * n);
  cudaMemset(a, 0, sizeof(*a) * m * k);
  cudaMemset(b, 0, sizeof(*b) * n * k);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, stream);
  const float alpha = 1, beta = 0;
  auto ours = [&] {
    return gemm(tawa::Matrix<const __nv_bfloat16>{a, m, k, k},
                tawa::Matrix<const __nv_bfloat16>{b, n, k, k},
                tawa::Matrix<__nv_bfloat16>{c, m, n, n}, stream);
  };
  auto theirs = [&] {
    return cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &alpha, b,
                        CUDA_R_16BF, k, a, CUDA_R_16BF, k, &beta, c,
                        CUDA_R_16BF, n, CUBLAS_COMPUTE_32F,
                        CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_SUCCESS
               ? cudaSuccess
               : cudaErrorUnknown;
  };
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int rep = 0; rep < 3; ++rep)
    for (int which = 0; which < 2; ++which) {
      for (int i = 0; i < 20; ++i)
        which ? theirs() : ours();
      cudaStreamSynchronize(stream);
      cudaEventRecord(start, stream);
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < calls; ++i)
        if ((which ? theirs() : ours()) != cudaSuccess) {
          std::printf("call failed\n");
          return 1;
        }
      const auto t1 = std::chrono::steady_clock::now();
      cudaEventRecord(stop, stream);
      cudaStreamSynchronize(stream);
      float ms = 0;
      cudaEventElapsedTime(&ms, start, stop);
      const double host_us =
          std::chrono::duration<double, std::micro>(t1 - t0).count() / calls;
      std::printf("%-6s %dx%dx%d  host %.2f us/call  gpu %.2f us/call\n",
                  which ? "cuBLAS" : "ours", m, n, k, host_us,
                  1000.0 * ms / calls);
    }
  return 0;
}
