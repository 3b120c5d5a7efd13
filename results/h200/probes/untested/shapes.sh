# Shapes of nine probe kernels of results/h200/probes/untested/ for
# results/h200/legacy-corpus/gpu.sh, which sources a shapes.sh beside the kernels it checks
# (colon-separated driver arguments before the output file). Each list has a shape of at
# least 2^25 flops (1024:1024:1024, the rewritten path; the launcher runs the kernel as
# written below 2^24 flops); ragged shapes only for the kernels that bounds-check.
PROBE_RAGGED="7:5:3 257:136:264 1000:1000:520 1001:999:517 1024:1024:1024"
# 16|M,N,K (unchecked fragment loads); 400 and 304 are not multiples of the 64 x 32 block,
# so warps whose tile starts outside C skip the loop and the store.
SHAPES[p09_wmma_4x2warps_guard_around]="16:16:16 48:80:32 256:512:384 1024:1024:1024 400:304:208"     # 16|M,N,K
# 16|M,N,K; 400 is not a multiple of the 32 x 32 block (warps past the edge return).
SHAPES[p11_wmma_linear_nt_bias_relu_bf16]="16:16:16 48:80:32 256:512:384 1024:1024:1024 400:304:208"  # 16|M,N,K
SHAPES[p2_batched_silu_int64_bf16]="7:5:3:2 257:136:264:3 1000:1000:520:2 1001:999:517:2 1024:1024:1024:2"  # M:N:K:batch
SHAPES[p2_blocktile1d_bf16]="64:64:8 128:128:128 256:512:384 1024:1024:1024 320:192:200"          # 64|M,N 8|K
SHAPES[p2_blocktile2d_vec_bf16]="128:128:16 128:128:128 256:512:384 1024:1024:1024 384:256:208"   # 128|M,N 16|K
# M:N:K:pad:beta, lda = M + pad, ldb = ldc = N + pad; beta 0 without padding: C holds NaN
# that the kernel must not read.
SHAPES[p2_regblock_strided_dynsmem_TN_half]="7:5:3:0:0.5 264:136:264:0:0 1000:1000:520:8:0.5 1001:999:517:0:0 1024:1024:1024:0:0.5"
SHAPES[p2_tiled_1d_alphabeta_bf16]="$PROBE_RAGGED"                                                   # alpha 1.5 beta 0.5
SHAPES[p2_tiled_macro_half]="$PROBE_RAGGED"
SHAPES[p2_wmma_2x2frag_staged_bias_relu_half]="$PROBE_RAGGED"
# M:N:K:slope; a negative slope where the shape is ragged.
SHAPES[p2_template_T_leakyrelu]="7:5:3:0.1 257:136:264:-0.5 1000:1000:520:0.01 1001:999:517:-2 1024:1024:1024:0.2"
# Zero-filled staging and checked stores: ragged shapes too.
SHAPES[p12_wmma_smem_staged_2x2_half]="$PROBE_RAGGED"
# Unchecked fragment loads: 32|M,N and 16|K (the block's 32 x 32 window).
SHAPES[p13_wmma_blog_scratch_64x2_half]="32:32:16 256:512:384 1024:1024:1024 320:192:208"
# The check of the warp's tile inside the K loop; 16|M,N,K (the loads are checked at the
# tile's first row and column only). Tiled where 32|M,N; 336 and 208 are not, so there the
# launcher runs the kernel as written, whose warps past the edge skip the products and the store.
SHAPES[p10_wmma_blog_colmajor_half_scratch]="32:32:16 256:512:384 1024:1024:1024 336:208:208"
# Zero-filled staging, checked stores, tiles read as half2 pairs: ragged shapes too.
SHAPES[p2_half2_smem_dot_half]="$PROBE_RAGGED"
# Square, the width a multiple of TILE_WIDTH * COARSE_FACTOR = 128 (N and K ignored).
SHAPES[p2_pmpp_coarsened_half]="128:128:128 384:384:384 1024:1024:1024 1280:1280:1280"
# Lambdas: 64|M,N and 32|K (unchecked copies and fragment stores); ragged for the checked one.
SHAPES[p2_wmma_dbuf_alphabeta_cfrag_bf16]="64:64:32 128:192:96 256:512:384 1024:1024:1024 320:448:224"
SHAPES[p14_lambda_tiled_bounds_half]="$PROBE_RAGGED"
SHAPES[p15_lambda_inloop_copies_half]="$PROBE_RAGGED"
# Unchecked: 64|M,N and 16|K.
SHAPES[p16_lambda_row_product_bf16]="64:64:16 256:512:384 1024:1024:1024 320:192:208"
# p17-p26 (verdicts-p17.txt), the rewritten ones.
# M:N:K:pad, column-major with lda = M + pad, ldb = K + pad, ldc = M + pad; bounds-checked.
SHAPES[p17_cublas_colmajor_ld_alphabeta_half]="7:5:3:0 257:136:264:8 1000:1000:520:0 1001:999:517:3 1024:1024:1024:0"
SHAPES[p18_ldg_tiled16_bf16]="$PROBE_RAGGED"
# Unchecked: 64|M,N and 16|K.
SHAPES[p21_regtile_tmpl_alpha_bf16]="64:64:16 256:512:384 1024:1024:1024 320:192:208 192:448:112"
# Unchecked fragment loads: 64|M,N (the block's 64 x 64) and 16|K.
SHAPES[p22_wmma_global_2x2frag_ld_alpha_half]="64:64:16 128:192:48 256:512:384 1024:1024:1024 320:448:208"
# Bounds-checked, C stored transposed (N x M).
SHAPES[p24_store_transposed_bf16]="$PROBE_RAGGED"
# Unchecked 16-byte copies: 64|M,N and 32|K.
SHAPES[p25_uint4_staging_64x64_half]="64:64:32 128:192:96 256:512:384 1024:1024:1024 320:448:224"
# Bounds-checked, C += A * B (C read).
SHAPES[p26_residual_rmw_float]="$PROBE_RAGGED"
# Bounds-checked, tanh of a bias per row (fp16 out), sigmoid of alpha * acc + a bias per column
# (fp32 out): ragged shapes.
SHAPES[p23_rowbias_tanh_half]="$PROBE_RAGGED"
SHAPES[p27_colbias_sigmoid_f32out_bf16]="$PROBE_RAGGED"
# Loops of K / TILE whole tiles, rows and columns checked: K not a multiple of the tile (the
# kernels sum the first TILE * (K / TILE) products), K below the tile (no product at all:
# the launcher runs the kernel as written), and K a multiple.
FLOOR="7:5:3 257:136:264 1000:1000:520 1024:1024:1000 1001:999:1037 520:1000:47 1024:1024:1024"
SHAPES[p19_floor_ktiles_half]="$FLOOR"
SHAPES[p28_regblock_floor_ktiles_bf16]="$FLOOR"
# 16|M,N (whole fragments) and 8|K (wmma::load_matrix_sync's ldm, K here, must be a multiple of
# 8 halves, CUDA C++ Programming Guide, "Warp Matrix Functions"): K = 8 mod 16 but for the last.
SHAPES[p29_wmma_tilecount_floor_half]="16:16:8 256:512:392 1024:1024:1000 1008:992:1032 1024:1024:1024"
# Split-K. p2_splitk: M:N:K:splits (its launch rounds the chunk up to a multiple of 32, so the
# rewritten kernel runs from 2^24 flops). p30: M:N:K:chunk; a chunk of 100 is no multiple of
# the 16-element K tile, so there the launcher runs the kernel as written.
SHAPES[p2_splitk_atomic_half]="7:5:3:2 257:136:264:3 1000:1000:520:4 1001:999:517:3 1024:1024:1024:4 512:512:8192:8"
SHAPES[p30_regblock_splitk_atomic_bf16]="7:5:3:16 257:136:264:64 1000:1000:520:100 1001:999:517:160 1024:1024:1024:256 512:512:8192:2048 1024:1024:4096:8192"
# Split-K slices computed in the kernel from gridDim.z: M:N:K:splits. p31 rounds its slice up
# to whole 32-element tiles (tiled from 2^24 flops); p32 shares out K / 16 whole tiles, so at
# 1001:999:517:2 (32 tiles, 16 per layer) the last 5 elements of K are summed by no layer, and
# at 1000:1000:520:7 the layers' slices of 80 elements cover K.
SHAPES[p31_splitk_griddim_macros_half]="7:5:3:2 257:136:264:3 1000:1000:520:4 1001:999:517:3 1024:1024:1024:4 512:512:8192:8 1024:1024:1024:1"
SHAPES[p32_regblock_splitk_tiles_bf16]="7:5:3:2 257:136:264:3 1000:1000:520:7 1001:999:517:2 1024:1024:1024:4 512:512:8192:8"
