#!/usr/bin/env python3
"""Writes X_main.cu for each probe kernel kept in gen/probes (conventions of
results/h200/legacy-corpus/gen_mains.py): the host launch function declared
with the exact signature of X.cu, inputs dev_random, outputs dev_nan (or
dev_random where the kernel reads them), output written as raw float32."""
import os
HERE = os.path.dirname(os.path.abspath(__file__))

def mnk(extra=(), usage_extra=''):
    n = 5 + len(extra)
    s = '''int main(int argc, char **argv) {
  if (argc != %d) { fprintf(stderr, "usage: %%s M N K%s out.f32\\n", argv[0]); return 1; }
  const int M = atoi(argv[1]), N = atoi(argv[2]), K = atoi(argv[3]);
''' % (n, usage_extra)
    for i, (t, name) in enumerate(extra):
        conv = 'atoi' if t == 'int' else 'atof'
        s += '  const %s %s = (%s)%s(argv[%d]);\n' % (t, name, t, conv, 4 + i)
    s += '  const char *out = argv[%d];\n' % (4 + len(extra))
    s += '  const size_t m = M, n = N, k = K;\n  (void)m; (void)n; (void)k;\n'
    return s

D = {}
D['Ak01_guide_nobounds_half'] = ('''void MatMul(const __half *dA, const __half *dB, float *dC, int M, int N, int K,
            cudaStream_t stream);''', mnk(), '''  __half *A = dev_random<__half>(m * k, 1);
  __half *B = dev_random<__half>(k * n, 2);
  float *C = dev_nan<float>(m * n);
  MatMul(A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')
D['Ak02_tiled32_bounds_alphabeta_bf16'] = ('''void gemm_bf16(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
               const __nv_bfloat16 *B, float beta, __nv_bfloat16 *C,
               cudaStream_t stream);''', mnk(), '''  __nv_bfloat16 *A = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *B = dev_random<__nv_bfloat16>(k * n, 2);
  __nv_bfloat16 *C = dev_random<__nv_bfloat16>(m * n, 4);  // read: beta * C
  gemm_bf16(M, N, K, 1.5f, A, B, 0.5f, C, 0);
  return finish(C, m * n, out);''')
D['Ak03_blocktiling1d_tmpl_half'] = ('''void runHgemm1DBlocktiling(int M, int N, int K, float alpha, const __half *A,
                           const __half *B, float beta, float *C);''', mnk(), '''  __half *A = dev_random<__half>(m * k, 1);
  __half *B = dev_random<__half>(k * n, 2);
  float *C = dev_random<float>(m * n, 4);  // read: beta * C
  runHgemm1DBlocktiling(M, N, K, 1.5f, A, B, 0.5f, C);
  return finish(C, m * n, out);''')
D['Ak04_blocktiling2d_bias_relu_bf16'] = ('''typedef __nv_bfloat16 bf16;
void linear_bias_relu(int M, int N, int K, const bf16 *A, const bf16 *B,
                      const bf16 *bias, bf16 *C, cudaStream_t stream);''', mnk(), '''  bf16 *A = dev_random<bf16>(m * k, 1);
  bf16 *B = dev_random<bf16>(k * n, 2);
  bf16 *bias = dev_random<bf16>(n, 3);
  bf16 *C = dev_nan<bf16>(m * n);
  linear_bias_relu(M, N, K, A, B, bias, C, 0);
  return finish(C, m * n, out);''')
D['Ak05_vectorize_transposeA_half'] = ('''void runHgemmVectorize(int M, int N, int K, float alpha, const __half *A,
                       const __half *B, float beta, float *C);''', mnk(), '''  __half *A = dev_random<__half>(m * k, 1);
  __half *B = dev_random<__half>(k * n, 2);
  float *C = dev_random<float>(m * n, 4);  // read: beta * C
  runHgemmVectorize(M, N, K, 1.5f, A, B, 0.5f, C);
  return finish(C, m * n, out);''')
D['Ak06_warptiling_helpers_bf16'] = ('''typedef __nv_bfloat16 bf16;
void runGemmWarptiling(int M, int N, int K, float alpha, const bf16 *A,
                       const bf16 *B, float beta, float *C);''', mnk(), '''  bf16 *A = dev_random<bf16>(m * k, 1);
  bf16 *B = dev_random<bf16>(k * n, 2);
  float *C = dev_random<float>(m * n, 4);  // read: beta * C
  runGemmWarptiling(M, N, K, 1.5f, A, B, 0.5f, C);
  return finish(C, m * n, out);''')
D['Ak07_double_buffer_prefetch_half'] = ('''void hgemm(const half *A, const half *B, half *C, int M, int N, int K,
           cudaStream_t stream);''', mnk(), '''  half *A = dev_random<half>(m * k, 1);
  half *B = dev_random<half>(k * n, 2);
  half *C = dev_nan<half>(m * n);
  hgemm(A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')
D['Ak08_from1_regprefetch_transA_bf16'] = ('''typedef __nv_bfloat16 bf16;
void bf16gemm(const bf16 *a, const bf16 *b, float *c, int M, int N, int K);''', mnk(), '''  bf16 *A = dev_random<bf16>(m * k, 1);  // M x K row-major
  bf16 *B = dev_random<bf16>(k * n, 2);
  float *C = dev_nan<float>(m * n);
  bf16gemm(A, B, C, M, N, K);
  return finish(C, m * n, out);''')
D['Ak09_batched_strided_alphabeta_half'] = ('''void batched_hgemm(const __half *A, const __half *B, __half *C, int M, int N,
                   int K, int batchCount, float alpha, float beta,
                   cudaStream_t stream);''', mnk([('int', 'batch')], ' batch'), '''  const size_t b = batch;
  __half *A = dev_random<__half>(b * m * k, 1);
  __half *B = dev_random<__half>(b * k * n, 2);
  __half *C = dev_random<__half>(b * m * n, 4);  // read: beta * C
  batched_hgemm(A, B, C, M, N, K, batch, 1.5f, 0.5f, 0);
  return finish(C, b * m * n, out);''')
D['Ak10_linear_nt_bias_relu_bf16'] = ('''void linear_relu_forward(const __nv_bfloat16 *X, const __nv_bfloat16 *W,
                         const __nv_bfloat16 *bias, __nv_bfloat16 *Y,
                         int M, int N, int K, cudaStream_t stream);''', mnk(), '''  __nv_bfloat16 *X = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *W = dev_random<__nv_bfloat16>(n * k, 2);  // N x K
  __nv_bfloat16 *bias = dev_random<__nv_bfloat16>(n, 3);
  __nv_bfloat16 *Y = dev_nan<__nv_bfloat16>(m * n);
  linear_relu_forward(X, W, bias, Y, M, N, K, 0);
  return finish(Y, m * n, out);''')
D['Ak11_cp_async_pipeline_2stage_half'] = ('''void hgemm_async(const __half *A, const __half *B, __half *C, int M, int N,
                 int K, cudaStream_t stream);''', mnk(), '''  __half *A = dev_random<__half>(m * k, 1);
  __half *B = dev_random<__half>(k * n, 2);
  __half *C = dev_nan<__half>(m * n);
  hgemm_async(A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')
D['Ak12_cp_async_ptx_3stage_zfill_bf16'] = ('''typedef __nv_bfloat16 bf16;
void gemm_bf16_async(const bf16 *A, const bf16 *B, bf16 *C, int M, int N, int K,
                     float alpha, cudaStream_t stream);''', mnk([('float', 'alpha')], ' alpha'), '''  bf16 *A = dev_random<bf16>(m * k, 1);
  bf16 *B = dev_random<bf16>(k * n, 2);
  bf16 *C = dev_nan<bf16>(m * n);
  gemm_bf16_async(A, B, C, M, N, K, alpha, 0);
  return finish(C, m * n, out);''')
D['Ak13_cg_colmajor_blas_half'] = ('''void hgemm_colmajor(int m, int n, int k, float alpha, const __half *A, int lda,
                    const __half *B, int ldb, float beta, float *C, int ldc,
                    cudaStream_t stream);''', mnk([('int', 'pad')], ' pad(ld = rows + pad)'), '''  // Column-major: A is M x K (lda = M + pad), B is K x N (ldb = K + pad),
  // C is M x N (ldc = M + pad); C is read (beta), its padding left alone.
  const int lda = M + pad, ldb = K + pad, ldc = M + pad;
  __half *A = dev_random<__half>((size_t)lda * k, 1);
  __half *B = dev_random<__half>((size_t)ldb * n, 2);
  float *C = dev_random<float>((size_t)ldc * n, 4);
  hgemm_colmajor(M, N, K, 1.5f, A, lda, B, ldb, 0.5f, C, ldc, 0);
  return finish(C, (size_t)ldc * n, out);''')
D['Ak14_template_dynsmem_1dblock_half'] = ('''void hgemm_dyn(const __half *A, const __half *B, __half *C, int M, int N, int K,
               int tile, cudaStream_t stream);''', mnk([('int', 'tile')], ' tile(16|32)'), '''  __half *A = dev_random<__half>(m * k, 1);
  __half *B = dev_random<__half>(k * n, 2);
  __half *C = dev_nan<__half>(m * n);
  hgemm_dyn(A, B, C, M, N, K, tile, 0);
  return finish(C, m * n, out);''')
D['Bk01_wmma_blog_alpha_beta'] = ('''void launch_wmma_gemm_alpha_beta(const half *a, const half *b, float *c, int M,
                                 int N, int K, float alpha, float beta,
                                 cudaStream_t stream);''', mnk(), '''  half *A = dev_random<half>(m * k, 1);
  half *B = dev_random<half>(n * k, 2);  // N x K
  float *C = dev_random<float>(m * n, 4);  // read: beta * C
  launch_wmma_gemm_alpha_beta(A, B, C, M, N, K, 1.5f, 0.5f, 0);
  return finish(C, m * n, out);''')
D['Bk04_wmma_double_buffer_bf16'] = ('''typedef __nv_bfloat16 bf16;
cudaError_t gemm_bf16_wmma_db_launch(const bf16 *A, const bf16 *B, float *C, int M,
                                     int N, int K, cudaStream_t stream);''', mnk(), '''  bf16 *A = dev_random<bf16>(m * k, 1);
  bf16 *B = dev_random<bf16>(k * n, 2);
  float *C = dev_nan<float>(m * n);
  CK(gemm_bf16_wmma_db_launch(A, B, C, M, N, K, 0));
  return finish(C, m * n, out);''')
D['Bk05_wmma_linear_bias_relu_staged'] = ('''void linear_bias_relu(const half *X, const half *W, const half *bias, half *Y,
                      int tokens, int in_features, int out_features,
                      cudaStream_t stream);''', mnk(), '''  // tokens = M, in_features = K, out_features = N.
  half *X = dev_random<half>(m * k, 1);
  half *W = dev_random<half>(n * k, 2);  // N x K
  half *bias = dev_random<half>(n, 3);
  half *Y = dev_nan<half>(m * n);
  linear_bias_relu(X, W, bias, Y, M, K, N, 0);
  return finish(Y, m * n, out);''')
D['Bk08_wmma_batched_strided_qk'] = ('''void attn_scores(const half *Q, const half *K, float *S, int batch_heads, int seq_q,
                 int seq_k, int head_dim, float scale, cudaStream_t stream);''', mnk([('int', 'batch')], ' batch'), '''  // seq_q = M, seq_k = N, head_dim = K.
  const size_t b = batch;
  half *Q = dev_random<half>(b * m * k, 1);
  half *Km = dev_random<half>(b * n * k, 2);  // seq_k x d per batch
  float *S = dev_nan<float>(b * m * n);
  attn_scores(Q, Km, S, batch, M, N, K, 0.125f, 0);
  return finish(S, b * m * n, out);''')
D['Bk15_wmma_template_dispatch'] = ('''enum class DType { kHalf, kBF16 };
void wmma_gemm(DType dt, const void *A, const void *B, float *C, int M, int N, int K,
               cudaStream_t stream);''', mnk([('int', 'dtype')], ' dtype(0=half|1=bf16)'), '''  const void *A, *B;
  if (dtype == 1) {
    A = dev_random<__nv_bfloat16>(m * k, 1);
    B = dev_random<__nv_bfloat16>(k * n, 2);
  } else {
    A = dev_random<__half>(m * k, 1);
    B = dev_random<__half>(k * n, 2);
  }
  float *C = dev_nan<float>(m * n);
  wmma_gemm(dtype == 1 ? DType::kBF16 : DType::kHalf, A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')

CONV1 = r'''int main(int argc, char **argv) {
  if (argc != 7) { fprintf(stderr, "usage: %s N H W C K out.f32\n", argv[0]); return 1; }
  const int Nb = atoi(argv[1]), H = atoi(argv[2]), W = atoi(argv[3]), C = atoi(argv[4]),
            Kf = atoi(argv[5]);
  const char *out = argv[6];
  const size_t pix = (size_t)Nb * H * W;
'''
D['Bk10_conv1x1_nhwc_smem'] = ('''void conv1x1_nhwc(const __half *input, const __half *weight, const float *bias,
                  __half *output, int N, int H, int W, int C, int K, cudaStream_t stream);''', CONV1, '''  __half *in = dev_random<__half>(pix * C, 1);          // NHWC
  __half *wt = dev_random<__half>((size_t)Kf * C, 2);   // K x C
  float *bias = dev_random<float>(Kf, 3);
  __half *y = dev_nan<__half>(pix * Kf);                // N x H x W x K
  conv1x1_nhwc(in, wt, bias, y, Nb, H, W, C, Kf, 0);
  return finish(y, pix * Kf, out);''')
CONV2 = r'''int main(int argc, char **argv) {
  if (argc != 11) { fprintf(stderr, "usage: %s N H W C K R S stride pad out.f32\n", argv[0]); return 1; }
  const int Nb = atoi(argv[1]), H = atoi(argv[2]), W = atoi(argv[3]), C = atoi(argv[4]),
            Kf = atoi(argv[5]), R = atoi(argv[6]), S = atoi(argv[7]), stride = atoi(argv[8]),
            pad = atoi(argv[9]);
  const char *out = argv[10];
  const int P = (H + 2 * pad - R) / stride + 1, Q = (W + 2 * pad - S) / stride + 1;
  if (P <= 0 || Q <= 0) { fprintf(stderr, "empty output\n"); return 1; }
'''
D['Bk12_conv_kxk_taps_nhwc'] = ('''void conv2d_nhwc(const half *in, const half *filt, half *out, int N, int H, int W, int C,
                 int K, int R, int S, int stride, int pad, cudaStream_t stream);''', CONV2, '''  half *x = dev_random<half>((size_t)Nb * H * W * C, 1);       // NHWC
  half *filt = dev_random<half>((size_t)Kf * R * S * C, 2);    // KRSC
  const size_t ny = (size_t)Nb * P * Q * Kf;                   // N x P x Q x K
  half *y = dev_nan<half>(ny);
  conv2d_nhwc(x, filt, y, Nb, H, W, C, Kf, R, S, stride, pad, 0);
  return finish(y, ny, out);''')

if __name__ == '__main__':  # untested/gen_mains.py imports mnk()
    for name, (decl, main, body) in D.items():
        assert os.path.exists(os.path.join(HERE, name + '.cu')), name
        with open(os.path.join(HERE, name + '_main.cu'), 'w') as f:
            f.write('// Generated by gen/probes/gen_mains.py -- driver for %s (original and rewritten).\n' % name)
            f.write('#include "driver.h"\n\n')
            f.write('// Host launch function of %s.cu, signature copied verbatim.\n' % name)
            f.write(decl + '\n\n' + main + body + '\n}\n')
    print(len(D), 'drivers')
