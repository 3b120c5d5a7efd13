# Shapes of the probe kernels for results/h200/legacy-corpus/gpu.sh, which
# sources a shapes.sh beside the kernels it checks (colon-separated driver
# arguments before the output file).
PROBE_RAGGED="7:5:3 257:136:264 1000:1000:520 1001:999:517 1024:1024:1024"
SHAPES[Ak01_guide_nobounds_half]="48:32:16 128:128:128 256:512:384 1024:1024:1024 400:304:208"      # 16|M,N,K
SHAPES[Ak02_tiled32_bounds_alphabeta_bf16]="$PROBE_RAGGED"                                                 # alpha 1.5 beta 0.5
SHAPES[Ak03_blocktiling1d_tmpl_half]="64:64:8 128:128:128 256:512:384 1024:1024:1024 320:192:200"   # 64|M,N 8|K
SHAPES[Ak04_blocktiling2d_bias_relu_bf16]="128:128:8 128:128:128 256:512:384 1024:1024:1024 384:256:200"  # 128|M,N 8|K
SHAPES[Ak05_vectorize_transposeA_half]="128:128:16 128:128:128 256:512:384 1024:1024:1024 384:256:208"    # 128|M,N 16|K
SHAPES[Ak06_warptiling_helpers_bf16]="128:128:16 128:128:128 256:512:384 1024:1024:1024 384:256:208"      # 128|M,N 16|K
SHAPES[Ak07_double_buffer_prefetch_half]="$PROBE_RAGGED"
SHAPES[Ak08_from1_regprefetch_transA_bf16]="128:128:16 128:128:128 256:512:384 1024:1024:1024 384:256:208"  # 128|M,N 16|K
SHAPES[Ak09_batched_strided_alphabeta_half]="7:5:3:2 257:136:264:3 1000:1000:520:2 1001:999:517:2 1024:1024:1024:2"  # M:N:K:batch
SHAPES[Ak10_linear_nt_bias_relu_bf16]="$PROBE_RAGGED"
SHAPES[Ak11_cp_async_pipeline_2stage_half]="64:64:32 128:64:64 256:512:384 1024:1024:1024 384:320:224"   # 64|M,N 32|K
SHAPES[Ak12_cp_async_ptx_3stage_zfill_bf16]="64:64:32:0.5 100:200:72:1.5 517:264:1032:-0.75 1000:1000:1000:1.5 1024:1024:1024:0.5"  # M:N:K:alpha, 8|N,K
SHAPES[Ak13_cg_colmajor_blas_half]="7:5:3:0 257:136:264:0 1001:999:517:0 1024:1024:1024:0 1000:1000:520:8"  # M:N:K:ld-pad
SHAPES[Ak14_template_dynsmem_1dblock_half]="7:5:3:16 257:136:264:32 1001:999:517:16 1024:1024:1024:16 1024:1024:1024:32"  # M:N:K:tile
SHAPES[Bk01_wmma_blog_alpha_beta]="16:16:16 48:80:32 256:512:384 1024:1024:1024 400:304:208"       # 16|M,N,K
SHAPES[Bk04_wmma_double_buffer_bf16]="128:64:32 128:64:96 256:128:64 1024:1024:1024 384:192:224"   # 128|M 64|N 32|K
SHAPES[Bk05_wmma_linear_bias_relu_staged]="$PROBE_RAGGED"
SHAPES[Bk08_wmma_batched_strided_qk]="16:16:16:2 48:80:32:3 256:512:384:2 400:304:208:4 1024:1024:1024:2"  # M:N:K:batch, 16|M,N,K
SHAPES[Bk10_conv1x1_nhwc_smem]="1:7:5:3:5 2:28:28:64:128 4:17:15:517:999 8:56:56:256:256 1:32:32:1024:1024"  # N:H:W:C:K
SHAPES[Bk12_conv_kxk_taps_nhwc]="1:8:8:3:5:3:3:1:1 2:28:28:64:128:3:3:1:1 4:30:30:64:100:3:3:2:1 3:17:19:128:72:5:5:1:2 1:32:32:1024:1024:1:1:1:0"  # N:H:W:C:K:R:S:stride:pad
SHAPES[Bk15_wmma_template_dispatch]="16:16:16:0 48:80:32:1 400:304:208:1 1024:1024:1024:0 1024:1024:1024:1"  # M:N:K:dtype(0 half,1 bf16)
