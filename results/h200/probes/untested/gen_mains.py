#!/usr/bin/env python3
"""gen_mains.py OUTDIR: writes OUTDIR/X_main.cu for nine probe kernels of this folder
(conventions of ../gen_mains.py and results/h200/legacy-corpus/gen_mains.py): the host
launch function declared with the exact signature of X.cu, inputs dev_random, outputs
dev_nan (or dev_random where the kernel reads them: beta * C), output written as raw
float32 by finish() of results/h200/legacy-corpus/drivers/driver.h. Shapes: shapes.sh."""
import importlib.util
import os
import sys
HERE = os.path.dirname(os.path.abspath(__file__))


# The driver's argument parsing, shared with ../gen_mains.py.
_spec = importlib.util.spec_from_file_location(
    'probe_gen_mains', os.path.join(HERE, '..', 'gen_mains.py'))
_parent = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_parent)
mnk = _parent.mnk


D = {}
D['p09_wmma_4x2warps_guard_around'] = ('''void gemm_wmma(const half *A, const half *B, float *C, int M, int N, int K, cudaStream_t s);''',
                                       mnk(), '''  half *A = dev_random<half>(m * k, 1);
  half *B = dev_random<half>(k * n, 2);
  float *C = dev_nan<float>(m * n);
  gemm_wmma(A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')
D['p11_wmma_linear_nt_bias_relu_bf16'] = ('''void linear_bias_relu(const __nv_bfloat16 *x, const __nv_bfloat16 *W, const float *b,
                      __nv_bfloat16 *y, int M, int N, int K, cudaStream_t stream);''', mnk(), '''  __nv_bfloat16 *x = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *W = dev_random<__nv_bfloat16>(n * k, 2);  // N x K
  float *b = dev_random<float>(n, 3);
  __nv_bfloat16 *y = dev_nan<__nv_bfloat16>(m * n);
  linear_bias_relu(x, W, b, y, M, N, K, 0);
  return finish(y, m * n, out);''')
D['p2_batched_silu_int64_bf16'] = ('''void bmm_bias_silu(const __nv_bfloat16 *A, const __nv_bfloat16 *B, const float *bias,
                   __nv_bfloat16 *out, int batch, int M, int N, int K, cudaStream_t stream);''',
                                   mnk([('int', 'batch')], ' batch'), '''  const size_t b = batch;
  __nv_bfloat16 *A = dev_random<__nv_bfloat16>(b * m * k, 1);
  __nv_bfloat16 *B = dev_random<__nv_bfloat16>(b * k * n, 2);
  float *bias = dev_random<float>(n, 3);
  __nv_bfloat16 *C = dev_nan<__nv_bfloat16>(b * m * n);
  bmm_bias_silu(A, B, bias, C, batch, M, N, K, 0);
  return finish(C, b * m * n, out);''')
D['p2_blocktile1d_bf16'] = ('''void runSgemm1DBlocktiling(int M, int N, int K, float alpha, __nv_bfloat16 *A,
                           __nv_bfloat16 *B, float beta, float *C);''', mnk(), '''  __nv_bfloat16 *A = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *B = dev_random<__nv_bfloat16>(k * n, 2);
  float *C = dev_random<float>(m * n, 4);  // read: beta * C
  runSgemm1DBlocktiling(M, N, K, 1.5f, A, B, 0.5f, C);
  return finish(C, m * n, out);''')
D['p2_blocktile2d_vec_bf16'] = ('''void launch_gemm_vec_bias_gelu(int M, int N, int K, const __nv_bfloat16 *A,
                               const __nv_bfloat16 *B, const __nv_bfloat16 *bias,
                               __nv_bfloat16 *C, cudaStream_t stream);''', mnk(), '''  __nv_bfloat16 *A = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *B = dev_random<__nv_bfloat16>(k * n, 2);
  __nv_bfloat16 *bias = dev_random<__nv_bfloat16>(n, 3);
  __nv_bfloat16 *C = dev_nan<__nv_bfloat16>(m * n);
  launch_gemm_vec_bias_gelu(M, N, K, A, B, bias, C, 0);
  return finish(C, m * n, out);''')
D['p2_regblock_strided_dynsmem_TN_half'] = ('''void hgemm_tn(int M, int N, int K, float alpha, const half *A, int lda, const half *B, int ldb,
              float beta, float *C, int ldc, cudaStream_t stream);''',
                                            mnk([('int', 'pad'), ('float', 'beta')],
                                                ' pad(ld = cols + pad) beta'), '''  // "TN": A is K x M (lda = M + pad), B is K x N (ldb = N + pad), C is M x N
  // (ldc = N + pad), all row-major; C's padding is left alone by the kernel.
  // beta == 0: BLAS convention, C is not read (NaN-poisoned where there is no
  // padding to keep finite); otherwise C is read.
  const int lda = M + pad, ldb = N + pad, ldc = N + pad;
  half *A = dev_random<half>((size_t)lda * k, 1);
  half *B = dev_random<half>((size_t)ldb * k, 2);
  float *C = (beta == 0.0f && pad == 0) ? dev_nan<float>((size_t)ldc * m)
                                        : dev_random<float>((size_t)ldc * m, 4);
  hgemm_tn(M, N, K, 1.5f, A, lda, B, ldb, beta, C, ldc, 0);
  return finish(C, (size_t)ldc * m, out);''')
D['p2_tiled_1d_alphabeta_bf16'] = ('''void run_sgemm_shared_bf16(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                           const __nv_bfloat16 *B, float beta, __nv_bfloat16 *C);''', mnk(), '''  __nv_bfloat16 *A = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *B = dev_random<__nv_bfloat16>(k * n, 2);
  __nv_bfloat16 *C = dev_random<__nv_bfloat16>(m * n, 4);  // read: beta * C
  run_sgemm_shared_bf16(M, N, K, 1.5f, A, B, 0.5f, C);
  return finish(C, m * n, out);''')
D['p2_tiled_macro_half'] = ('''void launch_matmul_tiled(const __half *A, const __half *B, float *C, int M, int N, int K,
                         cudaStream_t stream);''', mnk(), '''  __half *A = dev_random<__half>(m * k, 1);
  __half *B = dev_random<__half>(k * n, 2);
  float *C = dev_nan<float>(m * n);
  launch_matmul_tiled(A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')
D['p2_wmma_2x2frag_staged_bias_relu_half'] = ('''void launch_wmma_gemm_bias_relu(const half *A, const half *B, const half *bias, half *C,
                                int M, int N, int K, cudaStream_t s);''', mnk(), '''  half *A = dev_random<half>(m * k, 1);
  half *B = dev_random<half>(k * n, 2);
  half *bias = dev_random<half>(n, 3);
  half *C = dev_nan<half>(m * n);
  launch_wmma_gemm_bias_relu(A, B, bias, C, M, N, K, 0);
  return finish(C, m * n, out);''')
D['p2_template_T_leakyrelu'] = ('''template <typename T>
void launch_gemm_bias_lrelu(const T *A, const T *B, const T *bias, T *out, int M, int N, int K,
                            float slope, cudaStream_t stream);''', mnk([('float', 'slope')], ' slope'),
                                '''  // The fp16 instantiation; the slope from the shape (negative ones too).
  __half *A = dev_random<__half>(m * k, 1);
  __half *B = dev_random<__half>(k * n, 2);
  __half *bias = dev_random<__half>(n, 3);
  __half *C = dev_nan<__half>(m * n);
  launch_gemm_bias_lrelu<__half>(A, B, bias, C, M, N, K, slope, 0);
  return finish(C, m * n, out);''')
D['p12_wmma_smem_staged_2x2_half'] = ('''void hgemm(const half *A, const half *B, half *C, int M, int N, int K, float alpha,
           cudaStream_t s);''', mnk(), '''  half *A = dev_random<half>(m * k, 1);
  half *B = dev_random<half>(k * n, 2);
  half *C = dev_nan<half>(m * n);
  hgemm(A, B, C, M, N, K, 1.5f, 0);
  return finish(C, m * n, out);''')
D['p13_wmma_blog_scratch_64x2_half'] = ('''void blog_launch(const half *a, const half *b, half *c, int M, int N, int K);''',
                                        mnk(), '''  half *A = dev_random<half>(m * k, 1);
  half *B = dev_random<half>(k * n, 2);
  half *C = dev_nan<half>(m * n);
  blog_launch(A, B, C, M, N, K);
  return finish(C, m * n, out);''')
D['p10_wmma_blog_colmajor_half_scratch'] = ('''void launch_wmma_half_out(const half *a, const half *b, half *c, int M, int N, int K);''',
                                            mnk(), '''  half *A = dev_random<half>(m * k, 1);
  half *B = dev_random<half>(k * n, 2);
  half *C = dev_nan<half>(m * n);
  launch_wmma_half_out(A, B, C, M, N, K);
  return finish(C, m * n, out);''')
D['p2_half2_smem_dot_half'] = ('''void hgemm_half2(const half *A, const half *B, half *C, int M, int N, int K,
                 cudaStream_t stream);''', mnk(), '''  half *A = dev_random<half>(m * k, 1);
  half *B = dev_random<half>(k * n, 2);
  half *C = dev_nan<half>(m * n);
  hgemm_half2(A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')
# Square width x width matrices: the driver's M is the width (N and K are ignored).
D['p2_pmpp_coarsened_half'] = ('''void matrixMul(const __half *M_d, const __half *N_d, float *P_d, int width);''', mnk(), '''  __half *A = dev_random<__half>(m * m, 1);
  __half *B = dev_random<__half>(m * m, 2);
  float *C = dev_nan<float>(m * m);
  matrixMul(A, B, C, M);
  return finish(C, m * m, out);''')
# Staging in lambdas (checked since the front ends follow them).
D['p2_wmma_dbuf_alphabeta_cfrag_bf16'] = ('''void gemm_wmma_db(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N,
                  int K, float alpha, float beta, cudaStream_t stream);''', mnk(), '''  __nv_bfloat16 *A = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *B = dev_random<__nv_bfloat16>(k * n, 2);
  float *C = dev_random<float>(m * n, 4);  // read: beta * C
  gemm_wmma_db(A, B, C, M, N, K, 1.5f, 0.5f, 0);
  return finish(C, m * n, out);''')
D['p14_lambda_tiled_bounds_half'] = ('''void matmul_lambda_launch(const __half *A, const __half *B, const __half *bias, __half *C,
                          int M, int N, int K, cudaStream_t stream);''', mnk(), '''  __half *A = dev_random<__half>(m * k, 1);
  __half *B = dev_random<__half>(k * n, 2);
  __half *bias = dev_random<__half>(n, 3);
  __half *C = dev_nan<__half>(m * n);
  matmul_lambda_launch(A, B, bias, C, M, N, K, 0);
  return finish(C, m * n, out);''')

D['p15_lambda_inloop_copies_half'] = ('''void matmul_inloop_copies_launch(const __half *A, const __half *B, float *C, int M, int N,
                                 int K, cudaStream_t stream);''', mnk(), '''  __half *A = dev_random<__half>(m * k, 1);
  __half *B = dev_random<__half>(k * n, 2);
  float *C = dev_nan<float>(m * n);
  matmul_inloop_copies_launch(A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')
D['p16_lambda_row_product_bf16'] = ('''void matmul_row_lambdas_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                               int N, int K, cudaStream_t stream);''', mnk(), '''  __nv_bfloat16 *A = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *B = dev_random<__nv_bfloat16>(k * n, 2);
  float *C = dev_nan<float>(m * n);
  matmul_row_lambdas_launch(A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')

# Probes of p17-p26 that the tool rewrites (verdicts-p17.txt).
# M:N:K:pad; column-major, lda = M + pad, ldb = K + pad, ldc = M + pad; C read (beta 0.5).
D['p17_cublas_colmajor_ld_alphabeta_half'] = ('''void hgemm_colmajor(int m, int n, int k, float alpha, const __half *A, int lda, const __half *B,
                    int ldb, float beta, __half *C, int ldc, cudaStream_t stream);''',
                                              mnk([('int', 'pad')], ' pad(ld = rows + pad)'), '''  const int lda = M + pad, ldb = K + pad, ldc = M + pad;
  __half *A = dev_random<__half>((size_t)lda * k, 1);  // m x k column-major
  __half *B = dev_random<__half>((size_t)ldb * n, 2);  // k x n column-major
  __half *C = dev_random<__half>((size_t)ldc * n, 4);  // read: beta * C
  hgemm_colmajor(M, N, K, 1.5f, A, lda, B, ldb, 0.5f, C, ldc, 0);
  return finish(C, (size_t)ldc * n, out);''')
D['p18_ldg_tiled16_bf16'] = ('''void matmul_ldg_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N,
                       int K, cudaStream_t stream);''', mnk(), '''  __nv_bfloat16 *A = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *B = dev_random<__nv_bfloat16>(k * n, 2);
  float *C = dev_nan<float>(m * n);
  matmul_ldg_launch(A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')
D['p21_regtile_tmpl_alpha_bf16'] = ('''void gemm_regtile_launch(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                         const __nv_bfloat16 *B, float *C, cudaStream_t stream);''', mnk(), '''  __nv_bfloat16 *A = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *B = dev_random<__nv_bfloat16>(k * n, 2);
  float *C = dev_nan<float>(m * n);
  gemm_regtile_launch(M, N, K, 1.5f, A, B, C, 0);
  return finish(C, m * n, out);''')
D['p22_wmma_global_2x2frag_ld_alpha_half'] = ('''void wmma_gemm_global_launch(const half *A, const half *B, float *C, int M, int N, int K,
                             float alpha, cudaStream_t stream);''', mnk(), '''  half *A = dev_random<half>(m * k, 1);
  half *B = dev_random<half>(k * n, 2);
  float *C = dev_nan<float>(m * n);
  wmma_gemm_global_launch(A, B, C, M, N, K, 1.5f, 0);
  return finish(C, m * n, out);''')
D['p24_store_transposed_bf16'] = ('''void gemm_store_t_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *Ct, int M, int N,
                         int K, cudaStream_t stream);''', mnk(), '''  __nv_bfloat16 *A = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *B = dev_random<__nv_bfloat16>(k * n, 2);
  float *Ct = dev_nan<float>(n * m);  // N x M: the product transposed
  gemm_store_t_launch(A, B, Ct, M, N, K, 0);
  return finish(Ct, n * m, out);''')
D['p25_uint4_staging_64x64_half'] = ('''void hgemm_vec8_launch(const __half *A, const __half *B, __half *C, int M, int N, int K,
                       cudaStream_t stream);''', mnk(), '''  __half *A = dev_random<__half>(m * k, 1);
  __half *B = dev_random<__half>(k * n, 2);
  __half *C = dev_nan<__half>(m * n);
  hgemm_vec8_launch(A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')
D['p26_residual_rmw_float'] = ('''void gemm_residual_launch(const __half *A, const __half *B, float *C, int M, int N, int K,
                          cudaStream_t stream);''', mnk(), '''  __half *A = dev_random<__half>(m * k, 1);
  __half *B = dev_random<__half>(k * n, 2);
  float *C = dev_random<float>(m * n, 4);  // read: C += A * B
  gemm_residual_launch(A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')

# Loops of K / TILE whole tiles (the truncated K lifted, verdicts-floor.txt).
D['p19_floor_ktiles_half'] = ('''void gemm_floor_tiles_launch(const __half *A, const __half *B, float *C, int M, int N, int K,
                             cudaStream_t stream);''', mnk(), '''  __half *A = dev_random<__half>(m * k, 1);
  __half *B = dev_random<__half>(k * n, 2);
  float *C = dev_nan<float>(m * n);
  gemm_floor_tiles_launch(A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')
D['p28_regblock_floor_ktiles_bf16'] = ('''void gemm_regblock_floor_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                                int N, int K, cudaStream_t stream);''', mnk(), '''  __nv_bfloat16 *A = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *B = dev_random<__nv_bfloat16>(k * n, 2);
  float *C = dev_nan<float>(m * n);
  gemm_regblock_floor_launch(A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')
D['p29_wmma_tilecount_floor_half'] = ('''void wmma_tilecount_launch(const half *a, const half *b, float *c, int M, int N, int K,
                           cudaStream_t stream);''', mnk(), '''  half *A = dev_random<half>(m * k, 1);
  half *B = dev_random<half>(k * n, 2);
  float *C = dev_nan<float>(m * n);
  wmma_tilecount_launch(A, B, C, M, N, K, 0);
  return finish(C, m * n, out);''')

if len(sys.argv) != 2:
    sys.exit('usage: gen_mains.py OUTDIR')
outdir = sys.argv[1]
os.makedirs(outdir, exist_ok=True)
D['p23_rowbias_tanh_half'] = ('''void dense_tanh_launch(const __half *W, const __half *X, const float *bias, __half *Y, int M,
                       int N, int K, cudaStream_t stream);''', mnk(), '''  __half *W = dev_random<__half>(m * k, 1);
  __half *X = dev_random<__half>(k * n, 2);
  float *bias = dev_random<float>(m, 3);
  __half *Y = dev_nan<__half>(m * n);
  dense_tanh_launch(W, X, bias, Y, M, N, K, 0);
  return finish(Y, m * n, out);''')
D['p27_colbias_sigmoid_f32out_bf16'] = ('''void dense_sigmoid_launch(const __nv_bfloat16 *W, const __nv_bfloat16 *X, const float *bias,
                          float *Y, int M, int N, int K, float alpha, cudaStream_t stream);''', mnk(), '''  __nv_bfloat16 *W = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *X = dev_random<__nv_bfloat16>(k * n, 2);
  float *bias = dev_random<float>(n, 3);
  float *Y = dev_nan<float>(m * n);
  dense_sigmoid_launch(W, X, bias, Y, M, N, K, 0.25f, 0);
  return finish(Y, m * n, out);''')

# Split-K loops (a slice of K per grid layer, partial sums added with atomicAdd).
D['p2_splitk_atomic_half'] = ('''void gemm_splitk(const half *A, const half *B, float *C, int M, int N, int K, int splits,
                 cudaStream_t stream);''', mnk([('int', 'splits')], ' splits'), '''  half *A = dev_random<half>(m * k, 1);
  half *B = dev_random<half>(k * n, 2);
  float *C = dev_nan<float>(m * n);  // cleared by the launch
  gemm_splitk(A, B, C, M, N, K, splits, 0);
  return finish(C, m * n, out);''')
D['p30_regblock_splitk_atomic_bf16'] = ('''void gemm_regblock_splitk_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                                 int M, int N, int K, int kChunk, cudaStream_t stream);''',
                                        mnk([('int', 'chunk')], ' chunk'), '''  __nv_bfloat16 *A = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *B = dev_random<__nv_bfloat16>(k * n, 2);
  float *C = dev_random<float>(m * n, 4);  // read: C += A * B
  gemm_regblock_splitk_launch(A, B, C, M, N, K, chunk, 0);
  return finish(C, m * n, out);''')

# Split-K slices computed in the kernel from gridDim.z (the launch passes the layers).
D['p31_splitk_griddim_macros_half'] = ('''void gemm_splitk_grid_launch(const half *A, const half *B, float *C, int M, int N, int K,
                             int splits, cudaStream_t stream);''', mnk([('int', 'splits')], ' splits'), '''  half *A = dev_random<half>(m * k, 1);
  half *B = dev_random<half>(k * n, 2);
  float *C = dev_nan<float>(m * n);  // cleared by the launch
  gemm_splitk_grid_launch(A, B, C, M, N, K, splits, 0);
  return finish(C, m * n, out);''')
D['p32_regblock_splitk_tiles_bf16'] = ('''void gemm_regblock_splitk_tiles_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                       float *C, int M, int N, int K, int splits,
                                       cudaStream_t stream);''', mnk([('int', 'splits')], ' splits'), '''  __nv_bfloat16 *A = dev_random<__nv_bfloat16>(m * k, 1);
  __nv_bfloat16 *B = dev_random<__nv_bfloat16>(k * n, 2);
  float *C = dev_random<float>(m * n, 4);  // read: C += A * B
  gemm_regblock_splitk_tiles_launch(A, B, C, M, N, K, splits, 0);
  return finish(C, m * n, out);''')

for name, (decl, main, body) in D.items():
    assert os.path.exists(os.path.join(HERE, name + '.cu')), name
    with open(os.path.join(outdir, name + '_main.cu'), 'w') as f:
        f.write('// Generated by results/h200/probes/untested/gen_mains.py -- driver for %s (original and rewritten).\n' % name)
        f.write('#include "driver.h"\n\n')
        f.write('// Host launch function of %s.cu, signature copied verbatim.\n' % name)
        f.write(decl + '\n\n' + main + body + '\n}\n')
print(len(D), 'drivers')
