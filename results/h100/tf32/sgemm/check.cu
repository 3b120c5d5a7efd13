// Checks and times the SGEMMs of sgemm.cu as written (orig_*, fp32 FMAs)
// against the same file migrated and rewritten (tf32 wgmma), in one process:
// random normal A, B and C, an fp64 spot check of 256 elements of each
// result (error |c - ref| / (|ref| + mag), mag = sqrt(sum of the squared
// products); pass under 1e-2, no NaN), the relative Frobenius difference
// between the two results, and medians of 10 alternating rounds of each.
//   sgemm-check [--keep-pool] [--json FILE]
// --keep-pool sets the device's default memory pool to keep freed memory
// (cudaMemPoolAttrReleaseThreshold = max), so a launcher's cudaMallocAsync
// is served from the pool instead of mapping memory anew after each
// synchronization.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

void classic_sgemm(const float *, const float *, float *, int, int, int);
void orig_classic_sgemm(const float *, const float *, float *, int, int, int);
void blocked_sgemm(const float *, const float *, float *, int, int, int,
                   float, float);
void orig_blocked_sgemm(const float *, const float *, float *, int, int, int,
                        float, float);

void vectorized_sgemm(float *, float *, float *, int, int, int, float,
                      float);
void orig_vectorized_sgemm(float *, float *, float *, int, int, int, float,
                           float);
void warptiling_sgemm(float *, float *, float *, int, int, int, float,
                      float);
void orig_warptiling_sgemm(float *, float *, float *, int, int, int, float,
                           float);
void rows4_sgemm(float *, float *, float *, int, int, int, float, float);
void orig_rows4_sgemm(float *, float *, float *, int, int, int, float,
                      float);
void samples_sgemm(float *, float *, float *, int, int, int);
void orig_samples_sgemm(float *, float *, float *, int, int, int);

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));           \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

struct Case {
  const char *gemm;
  int m, n, k;
};

struct Outcome {
  double spot_orig = 0, spot_ws = 0, rel_diff = 0, ms_orig = 0, ms_ws = 0;
  bool pass = false;
};

/// Largest spot-check error of `c` (M x N) against fp64 over 256 elements.
double spot(const std::vector<float> &a, const std::vector<float> &b,
            const std::vector<float> &c0, const std::vector<float> &c,
            const Case &s, float alpha, float beta) {
  std::mt19937 pick(7);
  double worst = 0;
  for (int q = 0; q < 256; ++q) {
    const int i = q == 0 ? 0 : q == 1 ? s.m - 1 : int(pick() % s.m);
    const int j = q == 0 ? 0 : q == 1 ? s.n - 1 : int(pick() % s.n);
    double sum = 0, sum2 = 0;
    for (int k = 0; k < s.k; ++k) {
      const double t = double(a[size_t(i) * s.k + k]) * b[size_t(k) * s.n + j];
      sum += t;
      sum2 += t * t;
    }
    const double ref = alpha * sum + beta * double(c0[size_t(i) * s.n + j]);
    const double got = c[size_t(i) * s.n + j];
    const double err = std::isfinite(got)
                           ? std::fabs(got - ref) /
                                 (std::fabs(ref) + std::sqrt(sum2) + 1e-300)
                           : INFINITY;
    worst = std::max(worst, err);
  }
  return worst;
}

Outcome run(const Case &s, std::mt19937 &rng) {
  const bool vectorized = std::string(s.gemm) == "vectorized";
  const bool warptiling = std::string(s.gemm) == "warptiling";
  const bool rows4 = std::string(s.gemm) == "rows4";
  const bool blocked =
      std::string(s.gemm) == "blocked" || vectorized || warptiling || rows4;
  const float alpha = blocked ? 1.5f : 1.0f, beta = blocked ? -0.5f : 0.0f;
  std::normal_distribution<float> normal;
  std::vector<float> a(size_t(s.m) * s.k), b(size_t(s.k) * s.n),
      c0(size_t(s.m) * s.n);
  for (float &x : a) x = normal(rng);
  for (float &x : b) x = normal(rng);
  for (float &x : c0) x = normal(rng);
  float *da, *db, *dc;
  CHECK(cudaMalloc(&da, a.size() * 4));
  CHECK(cudaMalloc(&db, b.size() * 4));
  CHECK(cudaMalloc(&dc, c0.size() * 4));
  CHECK(cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
  auto call = [&](bool ws) {
    if (rows4)
      (ws ? rows4_sgemm : orig_rows4_sgemm)(da, db, dc, s.m, s.n, s.k, alpha,
                                            beta);
    else if (warptiling)
      (ws ? warptiling_sgemm : orig_warptiling_sgemm)(da, db, dc, s.m, s.n,
                                                      s.k, alpha, beta);
    else if (vectorized)
      (ws ? vectorized_sgemm : orig_vectorized_sgemm)(da, db, dc, s.m, s.n,
                                                      s.k, alpha, beta);
    else if (blocked)
      (ws ? blocked_sgemm : orig_blocked_sgemm)(da, db, dc, s.m, s.n, s.k,
                                                alpha, beta);
    else if (std::string(s.gemm) == "samples")
      (ws ? samples_sgemm : orig_samples_sgemm)(da, db, dc, s.m, s.n, s.k);
    else
      (ws ? classic_sgemm : orig_classic_sgemm)(da, db, dc, s.m, s.n, s.k);
  };
  auto result = [&](bool ws) {
    CHECK(cudaMemcpy(dc, c0.data(), c0.size() * 4, cudaMemcpyHostToDevice));
    call(ws);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<float> c(c0.size());
    CHECK(cudaMemcpy(c.data(), dc, c.size() * 4, cudaMemcpyDeviceToHost));
    return c;
  };
  Outcome o;
  const std::vector<float> orig = result(false), ws = result(true);
  o.spot_orig = spot(a, b, c0, orig, s, alpha, beta);
  o.spot_ws = spot(a, b, c0, ws, s, alpha, beta);
  double d2 = 0, r2 = 0;
  for (size_t i = 0; i < orig.size(); ++i) {
    d2 += double(ws[i] - orig[i]) * (ws[i] - orig[i]);
    r2 += double(orig[i]) * orig[i];
  }
  o.rel_diff = std::sqrt(d2 / r2);
  o.pass = o.spot_ws < 1e-2 && o.spot_orig < 1e-2 && std::isfinite(o.rel_diff);
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<float> t_orig, t_ws;
  for (int r = 0; r < 11; ++r)
    for (bool w : {false, true}) {
      CHECK(cudaEventRecord(e0));
      call(w);
      CHECK(cudaEventRecord(e1));
      CHECK(cudaEventSynchronize(e1));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, e0, e1));
      if (r > 0)
        (w ? t_ws : t_orig).push_back(ms);
    }
  std::sort(t_orig.begin(), t_orig.end());
  std::sort(t_ws.begin(), t_ws.end());
  o.ms_orig = t_orig[t_orig.size() / 2];
  o.ms_ws = t_ws[t_ws.size() / 2];
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return o;
}

int main(int argc, char **argv) {
  const char *json = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json" && i + 1 < argc) {
      json = argv[++i];
    } else if (arg == "--keep-pool") {
      cudaMemPool_t pool;
      CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
      unsigned long long keep = ~0ull;
      CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                                    &keep));
    } else {
      std::fprintf(stderr, "usage: sgemm-check [--keep-pool] [--json FILE]\n");
      return 2;
    }
  }
  const Case cases[] = {{"classic", 512, 512, 512},    {"classic", 1000, 1000, 1000},
                        {"classic", 777, 1555, 2333},  {"classic", 2048, 2048, 2048},
                        {"classic", 4096, 4096, 4096}, {"blocked", 512, 512, 512},
                        {"blocked", 1024, 3072, 2048}, {"blocked", 2048, 2048, 2048},
                        {"blocked", 4096, 4096, 4096}, {"samples", 512, 512, 512},
                        {"samples", 1024, 3072, 2048}, {"samples", 2048, 2048, 2048},
                        {"samples", 4096, 4096, 4096}, {"vectorized", 512, 512, 512},
                        {"vectorized", 1024, 3072, 2048}, {"vectorized", 2048, 2048, 2048},
                        {"vectorized", 4096, 4096, 4096}, {"warptiling", 512, 512, 512},
                        {"warptiling", 1024, 3072, 2048}, {"warptiling", 2048, 2048, 2048},
                        {"warptiling", 4096, 4096, 4096}, {"rows4", 512, 512, 512},
                        {"rows4", 1024, 3072, 2048}, {"rows4", 2048, 2048, 2048},
                        {"rows4", 4096, 4096, 4096}};
  std::mt19937 rng(2026);
  FILE *f = json ? std::fopen(json, "w") : nullptr;
  if (f)
    std::fprintf(f, "[");
  bool all = true;
  std::printf("%-10s %16s %5s %10s %10s %10s %10s %10s %8s\n", "gemm", "shape",
              "pass", "spot orig", "spot tf32", "rel diff", "orig ms",
              "tf32 ms", "speedup");
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    const Case &s = cases[i];
    const Outcome o = run(s, rng);
    all = all && o.pass;
    std::printf("%-10s %5dx%5dx%5d %5s %10.2e %10.2e %10.2e %10.3f %10.3f %8.1f\n",
                s.gemm, s.m, s.n, s.k, o.pass ? "yes" : "NO", o.spot_orig,
                o.spot_ws, o.rel_diff, o.ms_orig, o.ms_ws, o.ms_orig / o.ms_ws);
    if (f)
      std::fprintf(f,
                   "%s\n {\"gemm\": \"%s\", \"m\": %d, \"n\": %d, \"k\": %d, "
                   "\"pass\": %s, \"spot_orig\": %g, \"spot_tf32\": %g, "
                   "\"rel_diff\": %g, \"ms_orig\": %g, \"ms_tf32\": %g}",
                   i ? "," : "", s.gemm, s.m, s.n, s.k,
                   o.pass ? "true" : "false", o.spot_orig, o.spot_ws,
                   o.rel_diff, o.ms_orig, o.ms_ws);
  }
  if (f) {
    std::fprintf(f, "\n]\n");
    std::fclose(f);
  }
  return all ? 0 : 1;
}
