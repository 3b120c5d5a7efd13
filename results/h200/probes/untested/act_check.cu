// Device check of tawa::tanh and tawa::sigmoid against tanhf and 1 / (1 + expf(-x)) in double.
#include <tawa/tile.h>
#include <cstdio>
#include <cmath>
__global__ void run(int n, float lo, float step, double *err) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = lo + step * i;
  double t = tanh((double)x), s = 1.0 / (1.0 + exp(-(double)x));
  double et = fabs((double)tawa::tanh(x) - t) / fmax(fabs(t), 1e-30);
  double ef = fabs((double)tanhf(x) - t) / fmax(fabs(t), 1e-30);
  double es = fabs((double)tawa::sigmoid(x) - s) / fmax(fabs(s), 1e-30);
  err[3 * i] = et; err[3 * i + 1] = ef; err[3 * i + 2] = es;
}
int main() {
  const int n = 1 << 22; const float lo = -30.f, step = 60.f / n;
  double *d; cudaMalloc(&d, 3 * sizeof(double) * n);
  run<<<(n + 255) / 256, 256>>>(n, lo, step, d);
  double *h = new double[3 * n];
  cudaMemcpy(h, d, 3 * sizeof(double) * n, cudaMemcpyDeviceToHost);
  double m[3] = {0, 0, 0}; float at[3] = {0, 0, 0};
  for (int i = 0; i < n; ++i) for (int j = 0; j < 3; ++j) if (h[3 * i + j] > m[j]) { m[j] = h[3 * i + j]; at[j] = lo + step * i; }
  printf("max relative error over [-30, 30), %d points: tawa::tanh %.3g (x = %g), tanhf %.3g (x = %g), tawa::sigmoid %.3g (x = %g)\n", n, m[0], at[0], m[1], at[1], m[2], at[2]);
  return 0;
}
