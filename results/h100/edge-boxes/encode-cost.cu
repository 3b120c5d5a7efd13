// The host time of tawa::rt::make_tensor_map (one cuTensorMapEncodeTiled):
// a 4096 x 4096 bf16 matrix, boxes of 128, 64, 32, 16 and 8 rows, 20000
// encodings each; prints microseconds per encoding.
#include <tawa/runtime.cuh>

#include <chrono>
#include <cstdio>

int main() {
  __nv_bfloat16 *data = nullptr;
  if (cudaMalloc(&data, 4096ull * 4096 * sizeof(__nv_bfloat16)) != cudaSuccess)
    return 1;
  tawa::Matrix<const __nv_bfloat16> m{data, 4096, 4096, 4096};
  CUtensorMap map;
  for (int rows = 128; rows >= 8; rows /= 2) {
    const int n = 20000;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i)
      if (tawa::rt::make_tensor_map(&map, m, rows, 64) != cudaSuccess)
        return 1;
    const std::chrono::duration<double, std::micro> us =
        std::chrono::steady_clock::now() - start;
    std::printf("box %3d x 64: %.3f us per encoding\n", rows, us.count() / n);
  }
  cudaFree(data);
  return 0;
}
