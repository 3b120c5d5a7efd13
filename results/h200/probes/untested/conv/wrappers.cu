// C entry points for the four cooperative convolution probes
// (p03, p04, p05, p06), appended to each probe's source, as written or rewritten,
// by run.sh: one signature for all, (x, w, bias, y, N, H, W, C, K, R, S, pad,
// stride, stream); p03, p05 and p06 ignore what they do not take (p06
// launches on the default stream).
extern "C" int probe_conv(const void *x, const void *w, const void *bias,
                          void *y, int N, int H, int W, int C, int K, int R,
                          int S, int pad, int stride, void *stream) {
  cudaStream_t st = static_cast<cudaStream_t>(stream);
#if defined(PROBE_P03)
  const int P = (H + 2 * pad - R) / stride + 1, Q = (W + 2 * pad - S) / stride + 1;
  ConvParams p{N, H, W, C, K, R, S, P, Q, pad, stride};
  conv_igemm_coop_launch(p, static_cast<const __nv_bfloat16 *>(x),
                         static_cast<const __nv_bfloat16 *>(w),
                         static_cast<float *>(y), st);
#elif defined(PROBE_P04)
  conv_fwd_regblock_launch(static_cast<const half *>(x),
                           static_cast<const half *>(w),
                           static_cast<const half *>(bias),
                           static_cast<half *>(y), N, H, W, C, K, R, S, pad,
                           pad, stride, stride, st);
#elif defined(PROBE_P05)
  conv_wmma_forward(static_cast<const __nv_bfloat16 *>(x),
                    static_cast<const __nv_bfloat16 *>(w),
                    static_cast<const float *>(bias),
                    static_cast<__nv_bfloat16 *>(y), N, H, W, C, K, R, S, pad,
                    stride, st);
#elif defined(PROBE_P06)
  (void)bias;
  (void)st;
  conv_taps_wmma_launch(static_cast<const half *>(x),
                        static_cast<const half *>(w), static_cast<float *>(y),
                        N, H, W, C, K, R, S, pad, stride);
#endif
  return cudaGetLastError();
}
