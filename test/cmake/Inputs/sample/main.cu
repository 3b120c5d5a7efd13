// Runs both GEMMs on random inputs at a size that is not a multiple of the
// tile and compares them with a float64 product on the host. Exit status 0
// when both agree (relative Frobenius error under 1e-2), or when there is
// no GPU (the build is what is checked then).
#include <sample/gemm.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace {

template <class T, class Gemm> bool check(const char *Name, Gemm gemm) {
  const int M = 300, N = 520, K = 200;
  std::mt19937 Rng(7);
  std::normal_distribution<float> Dist;
  std::vector<T> A(M * K), B(N * K), C(M * N);
  for (T &X : A)
    X = T(Dist(Rng));
  for (T &X : B)
    X = T(Dist(Rng));
  T *dA, *dB, *dC;
  cudaMalloc(&dA, A.size() * sizeof(T));
  cudaMalloc(&dB, B.size() * sizeof(T));
  cudaMalloc(&dC, C.size() * sizeof(T));
  cudaMemcpy(dA, A.data(), A.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemset(dC, 0xff, C.size() * sizeof(T)); // NaNs where nothing is written
  cudaError_t E = gemm(tawa::Matrix<const T>{dA, M, K, K},
                       tawa::Matrix<const T>{dB, N, K, K},
                       tawa::Matrix<T>{dC, M, N, N}, cudaStream_t{});
  if (E == cudaSuccess)
    E = cudaDeviceSynchronize();
  cudaMemcpy(C.data(), dC, C.size() * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  if (E != cudaSuccess) {
    std::printf("%s: %s\n", Name, cudaGetErrorString(E));
    return false;
  }
  double Err = 0, Norm = 0;
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      double Ref = 0;
      for (int L = 0; L < K; ++L)
        Ref += double(float(A[I * K + L])) * double(float(B[J * K + L]));
      double D = double(float(C[I * N + J])) - Ref;
      Err += D * D;
      Norm += Ref * Ref;
    }
  double Rel = std::sqrt(Err / Norm);
  std::printf("%s: relative error %.2e\n", Name, Rel);
  return Rel < 1e-2;
}

} // namespace

int main() {
  int Devices = 0;
  if (cudaGetDeviceCount(&Devices) != cudaSuccess || Devices == 0) {
    std::printf("sample: no CUDA device; the build is what was checked\n");
    return 0;
  }
#if SAMPLE_NEEDS_SM90A
  // The rewritten kernels are sm_90a code.
  cudaDeviceProp Prop;
  cudaGetDeviceProperties(&Prop, 0);
  if (Prop.major != 9) {
    std::printf("sample: built for sm_90a, the GPU is sm_%d%d; not run\n",
                Prop.major, Prop.minor);
    return 0;
  }
#endif
  bool Ok = check<__nv_bfloat16>("gemm_bf16", gemm_bf16);
  Ok &= check<__half>("gemm_f16", gemm_f16);
  std::printf("sample: %s\n", Ok ? "ok" : "FAILED");
  return Ok ? 0 : 1;
}
