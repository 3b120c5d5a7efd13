#!/bin/bash
# The legacy corpus's GPU correctness check: each kernel rewritten by tawa-rewrite (X.ws.cu)
# against its original (X.cu), through the same driver X_main.cu.
#
# usage (from the repo root, on an sm_90a GPU machine, GEN as make.sh writes it):
#   bash results/h200/legacy-corpus/gpu.sh OUTDIR [GEN]
# Writes logs under OUTDIR, prints one line per (kernel, shape) and a summary
# line, and finishes with OUTDIR.tar.gz. Env: JOBS (parallel builds, default
# 16), RJOBS (kernels run concurrently on the GPU, default 4), NVCC.
set -u

if [ $# -lt 1 ]; then echo "usage: bash results/h200/legacy-corpus/gpu.sh OUTDIR [GEN]" >&2; exit 1; fi
OUT=$1
JOBS=${JOBS:-16}
RJOBS=${RJOBS:-4}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
[ -x "$NVCC" ] || NVCC=nvcc
D=${2:-gen/legacy-corpus}
B=build/legacy-corpus
if [ ! -f "$D/compare.py" ] || [ ! -d include/tawa ]; then
  echo "gpu.sh: run from the repo root, GEN written by make.sh" >&2
  exit 1
fi
mkdir -p "$OUT/build" "$OUT/run" "$B/out"
OUT=$(cd "$OUT" && pwd)
T0=$(date +%s)

# ---- shapes (colon-separated driver arguments before the output file) ------
# Bounds-checked kernels: tiny (runs the original kernel through the rewrite's
# small-problem fallback), ragged with 16-byte-aligned strides (>= 2^24 flops:
# the warp-specialized path reads operands in place), aligned large, and
# ragged unaligned large (>= 2^28 flops: the warp-specialized path with the
# operand copy to aligned buffers).
RAGGED="7:5:3 257:136:264 1000:1000:520 1001:999:517"
declare -A SHAPES=(
  [batched_strided_half]="7:5:3:2 257:136:264:3 1000:1000:520:2 1001:999:517:2"
  [colmajor_C_classic]="$RAGGED"
  [dynamic_smem_classic_bf16]="$RAGGED"
  [bias_residual_bf16]="$RAGGED"
  [colmajor_lda_tilecount]="$RAGGED"
  [double_buffer_tiles_bf16]="$RAGGED"
  [gelu_rowbias_alpha]="$RAGGED"
  [regblock_2d_threads_strided]="$RAGGED"
  [scalar_accs_2cols]="$RAGGED"
  [sgemm_tf32_regblock]="$RAGGED"
  [transposed_As_bias_relu_bf16]="$RAGGED"
  [trap_beta_only_C]="$RAGGED"
  [trap_separate_Cin]="$RAGGED"
  [trap_atomic_store]="$RAGGED 1024:1024:1024"
  [local_before_store]="$RAGGED"
  [local_scale_rowmajor]="$RAGGED"
  [local_scale_colmajorC]="$RAGGED"
  [store_through_local]="$RAGGED"
  [store_local_relu]="$RAGGED"
  [trap_leaky_relu]="$RAGGED"
  [local_update_leaky_half]="$RAGGED"
  [separate_Cin_half]="$RAGGED"
  [accumulate_into_C]="$RAGGED"
  [trap_blockdim_index]="$RAGGED"
  [trap_nested_if_store]="$RAGGED"
  [trap_le_bounds]="$RAGGED"
  [trap_relu_int_zero]="$RAGGED"
  [dispatch_from_function_template]="7:5:3:16 257:136:264:32 1000:1000:520:16 1001:999:517:32 1024:1024:1024:16"  # M:N:K:block_size
  # No bounds checks: multiples of the original's tiles only. 128^3 is below
  # the rewrite's 2^24-flop threshold (fallback); the last shape is a multiple
  # of the original's tiles but not of the 128x256x64 warp-specialized tile.
  [guide_nobounds_ldg_half]="128:128:128 256:512:384 1024:1024:1024 400:304:208"   # 16|M,N,K
  [int4_vec_half_nobounds]="128:128:128 256:512:384 1024:1024:1024 320:192:160"    # 64|M,N 32|K
  [k3_smem_block_half]="128:128:128 256:512:384 1024:1024:1024 320:288:160"        # 32|M,N,K
  [k4_1d_blocktiling_bf16]="128:128:128 256:512:384 1024:1024:1024 320:192:200"    # 64|M,N 8|K
  [k4_asserts_bf16]="128:128:128 256:512:384 1024:1024:1024 320:192:200"           # 64|M,N 8|K
  [llmc_bias_gelu_bf16]="$RAGGED"
  [course_min_kmax_half]="$RAGGED"
  [widen_float_tiles_half]="$RAGGED"
  [double_buffer_toggle_half]="$RAGGED"
  [vec_smem_reads_bf16]="128:128:128 256:512:384 1024:1024:1024 384:320:208"      # 64|M,N 16|K
  [cp_async_tiles_bf16]="64:64:32 256:512:384 1024:1024:1024 384:320:224"        # 64|M,N 32|K
  [cp_async_in_flight_half]="64:64:32 128:64:64 256:512:384 1024:1024:1024 384:320:224"  # 64|M,N 32|K
  [cp_async_zfill_bf16]="64:64:32 100:200:72 33:64:40 517:264:1032 1000:1000:1000"  # 8|N,K
  [cp_async_zfill_ptx_half]="64:64:32:0.5 100:200:72:0.25 33:64:40:1 517:264:1032:-0.75 1000:1000:1000:0.5"  # 8|N,K
  [half2_pairs_epilogue]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"  # 2|N
  [float4_checked_epilogue_bf16]="64:64:16 7:4:5 100:204:77 333:132:1001 1000:1000:1000 1024:1024:1024"  # 4|N
  [course_scalar_caches_half]="$RAGGED 1024:1024:1024"
  [checked_uint4_bf16]="64:64:32 100:200:72 33:64:40 517:264:1032 1000:1000:1000"  # 8|N,K
  [cp_async_one_barrier_half]="64:64:32 100:200:72 33:64:40 517:264:1032 1000:1000:1000"  # 8|N,K
  [cp_async_helpers_half]="64:64:32 100:200:72 33:64:40 517:264:1032 1000:1000:1000"  # 8|N,K
  [wmma_one_barrier_bf16]="64:64:32 128:192:96 1024:1024:1024 384:256:224"  # 64|M,N 32|K
  [toggled_stage_bf16]="64:64:32 128:192:96 1024:1024:1024 384:256:224"  # 64|M,N 32|K
  [cp_async_wait_all_half]="64:64:32 100:200:72 33:64:40 517:264:1032 1000:1000:1000"  # 8|N,K
  [toggle_advance_bf16]="64:64:32 128:192:96 1024:1024:1024 384:256:224"  # 64|M,N 32|K
  [multistage_pipeline_bf16]="64:64:32 100:200:72 33:128:40 16:8:8 517:264:1032 1000:1000:1000"  # 8|N,K
  [cuda_pipeline_bf16]="64:64:32 100:200:72 33:128:40 16:8:8 517:264:1032 1000:1000:1000"  # 8|N,K
  [bottom_wait_ring_bf16]="64:64:32 100:200:72 33:128:40 16:8:8 517:264:1032 1000:1000:1000"  # 8|N,K
  [tail_wait_else_half]="64:64:32 100:200:72 33:128:40 16:8:8 517:264:1032 1000:1000:1000"  # 8|N,K
  [wmma_ring_half]="128:64:32 256:128:64 128:64:96 384:192:224 1024:1024:1024"  # 128|M 64|N 32|K
  [wmma_pipeline_half]="128:64:32 256:128:64 128:64:96 384:192:224 1024:1024:1024"  # 128|M 64|N 32|K
  [wmma_dynamic_ring_half]="128:64:32 256:128:64 128:64:96 384:192:224 1024:1024:1024"  # 128|M 64|N 32|K
  [dynamic_ring_bf16]="64:64:32 100:200:72 33:128:40 16:8:8 517:264:1032 1000:1000:1000"  # 8|N,K
  [dynamic_stage_pointers_bf16]="64:64:32 100:200:72 33:128:40 16:8:8 517:264:1032 1000:1000:1000"  # 8|N,K
  [wmma_stage_pointers_half]="128:64:32 256:128:64 128:64:96 384:192:224 1024:1024:1024"  # 128|M 64|N 32|K
  [optional_bias_blocked_bf16]="$RAGGED 64:64:64 1024:1024:1024 1023:1024:1024"  # odd M: no bias
  [multistage_ptx_half]="64:64:32:0.5 100:200:72:0.25 33:128:40:1 16:8:8:2 517:264:1032:-0.75 1000:1000:1000:0.5"  # 8|N,K
  [negated_zfill_half]="64:64:32 100:200:72 33:64:40 517:264:1032 1000:1000:1000"  # 8|N,K
  [shared_negated_bf16]="64:64:32 100:202:77 33:65:17 517:263:1031 1000:1000:1000"
  [write_stage_regs_bf16]="64:64:32 128:192:96 1024:1024:1024 384:256:224"  # 64|M,N 32|K
  [cp_async_ptx_bf16]="64:64:32:0.5 256:512:384:-0.75 1024:1024:1024:0.5 384:320:224:1"  # 64|M,N 32|K
  [wmma_shift_warps_half]="16:16:16 48:32:48 256:512:384 1024:1024:1024 400:336:208"  # 16|M,N,K
  [template_helpers_half_bf16]="$RAGGED 1024:1024:1024"
  [wmma_warp_grid_bf16]="16:16:16:0.5 48:80:32:-1 256:512:384:0.5 1024:1024:1024:0.5 400:336:208:0"  # 16|M,N,K
  [prefetch_advance_flat_bf16]="64:64:16 128:192:48 256:512:384 1024:1024:1024 384:320:208"  # 64|M,N 16|K
  [prefetch_advance_end_half]="64:64:16 128:192:48 256:512:384 1024:1024:1024 384:320:208"  # 64|M,N 16|K
  # K a multiple of the original's 32-element tile, M and N ragged: for
  # other K the kernel as written reads shared memory no copy wrote (its
  # result is not determined), and the launcher runs it as written there.
  [noelse_whole_k_bf16]="7:5:32 257:136:288 1000:1000:512 1001:999:544"
  [dynamic_smem_blocked_half]="128:128:128 256:512:384 1024:1024:1024 320:192:200"  # 64|M,N 8|K
  [blocktile_local_bias_relu]="128:128:128 256:512:384 1024:1024:1024 320:192:200"  # 64|M,N 8|K
  [blocktile_leaky_update_bf16]="128:128:128 256:512:384 1024:1024:1024 320:192:200"  # 64|M,N 8|K
  [vec_transposed_half_view]="128:128:128 256:512:384 1024:1024:1024 384:384:208"  # 128|M,N 16|K
  [k5_2d_blocktiling_half]="128:128:128 256:512:384 1024:1024:1024 384:384:200"    # 128|M,N 8|K
  [k6_vectorize_bf16]="128:128:128 256:512:384 1024:1024:1024 384:384:208"         # 128|M,N 16|K
  [matrixmul_sample_half]="128:128:128:32 256:512:384:16 1024:1024:1024:32 400:304:208:16 320:288:160:32"  # M:N:K:block_size
  [wmma_4warps_alpha_colC]="128:128:128 256:512:384 1024:1024:1024 400:304:208"    # 16|M,N,K
  [warptile_bf16]="128:128:128 256:512:384 1024:1024:1024 384:256:208"             # 128|M,N 16|K
  [wmma_global_c_input]="128:128:128 256:512:384 1024:1024:1024 400:304:208"       # 16|M,N,K
  [wmma_one_warp_bf16_colB]="128:128:128 256:512:384 1024:1024:1024 400:304:208"   # 16|M,N,K
  [wmma_staged_epilogue_bf16]="128:128:128 256:512:384 1024:1024:1024 384:320:208" # 64|M,N 16|K
  [blocked_staged_store_half]="$RAGGED"
  [unsigned_extents_half]="$RAGGED"
  [conv1x1_pixels_bf16]="$RAGGED"
  [prefetch_regs_half]="128:128:128 256:512:384 1024:1024:1024 384:384:208"        # 128|M,N 16|K
  [double_buffer_vec_bf16]="128:128:128 256:512:384 1024:1024:1024 384:256:224"    # 128|M,N 32|K
  [prefetch_guarded_bias_bf16]="$RAGGED"
  [float4_regs_prefetch_half]="128:128:128 256:512:384 1024:1024:1024 384:256:208" # 128|M,N 16|K
  # M:N:K:beta; where beta is 0, C holds NaN that the kernel must not read.
  [beta_zero_branch_half]="7:5:3:0 257:136:264:0 1000:1000:520:-0.5 1001:999:517:0 1001:999:517:0.75 1024:1024:1024:0"
  [addmm_betaif_bf16]="7:5:3:0 257:136:264:0 1000:1000:520:-0.5 1001:999:517:0 1001:999:517:0.75 1024:1024:1024:0"
  [blocked_beta_zero_bf16]="7:5:3:0 257:136:264:0 1000:1000:520:-0.5 1001:999:517:0 1001:999:517:0.75 1024:1024:1024:0"
  [early_return_blocked_bf16]="7:5:3:0 257:136:264:0 1000:1000:520:-0.5 1001:999:517:0 1001:999:517:0.75 1024:1024:1024:0"
  [blocked_beta_if_bf16]="7:5:3:0 257:136:264:0 1000:1000:520:-0.5 1001:999:517:0 1001:999:517:0.75 1024:1024:1024:0"
  [wmma_frags_alpha_half]="128:128:128 256:512:384 1024:1024:1024 384:320:208"    # 64|M,N 16|K
  [wmma_double_buffer_half]="128:128:128 256:512:384 1024:1024:1024 384:256:224"   # 128|M,N 32|K
  [return_after_loop_half]="$RAGGED 1024:1024:1024"
  [vec4_temps_tf32]="128:128:128 256:512:384 1024:1024:1024 384:320:208"      # 64|M,N 16|K
  [wmma_scratch_reuse_half]="64:64:16 128:192:96 1024:1024:1024 384:320:208"      # 64|M,N 16|K
  [wmma_scratch_colmajor_alpha]="64:64:16 128:192:96 1024:1024:1024 384:320:208"  # 64|M,N 16|K
  [wmma_scratch_pointer_bf16]="64:64:16 128:192:96 1024:1024:1024 384:320:208"    # 64|M,N 16|K
  [wmma_blog_guarded_scratch_bf16]="64:64:16 320:448:96 1008:496:208 1024:1024:1024"  # 16|M,N,K; tiled where 64|M,N
  [coarsened_rows_checked_bf16]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"
  [pair_reads_bf16]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"
  [wmma_cfrag_blend_dbuf_bf16]="64:64:32 128:192:96 1024:1024:1024 384:320:224"  # 64|M,N 32|K
  [pair_local_bias_half]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"  # 2|N
  [next_barrier_bf16]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"
  [half2_halved_index_half]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"  # 2|N
  [leading_sync_double_buffer_half]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"
  [pair_apart_guard_bf16]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"  # 2|N
  [pair_members_relu_bf16]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"  # 2|N
  # 128|M,N 8|K; the rewrite where 16|K (the last tiles in buffer 1), the
  # kernel as written for 384:256:200 (25 tiles).
  [from_one_float2_half]="128:128:128 256:512:384 1024:1024:1024 384:256:208 384:256:200"
  [from_one_zfill_bf16]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"
  [from_one_toggle_half]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"
  [from_one_single_buffer_bf16]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"
  # 64|M,N 32|K; 32 x 32 runs no iteration of the loop, 64 x 64 one.
  [from_one_wmma_half]="64:64:32 128:64:64 256:512:384 1024:1024:1024 384:320:224"
  [zero_then_copy_tn_half]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"
  [blocked_zero_fill_bf16]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"
  # 16|M,N: the fragments are stored whole under a check of their first element.
  [wmma_checked_stores_half]="64:64:16 48:80:77 336:208:1001 1024:1024:1024 1008:1008:520"
  # 32|M,N 16|K: the warps whose 32 x 32 tile starts outside C return.
  [wmma_warp_return_bf16]="64:64:16 96:160:48 1024:1024:1024 352:224:208 1024:512:4096"
  # 16|M,N,K: the warps whose tile starts outside C skip the loop (N = 80,
  # 208: the kernel as written, the launcher's N % 64).
  [wmma_loop_guard_half]="64:64:16 48:80:64 1024:1024:1024 336:208:1008 1008:1024:528"
  [smem_block_guard_bf16]="64:64:16 7:6:5 100:202:77 333:130:1001 1000:1000:1000 1024:1024:1024"
)
# Kernels checked outside the corpus (results/h200/probes/) bring their own
# shapes: GEN/shapes.sh adds SHAPES entries.
[ -f "$D/shapes.sh" ] && . "$D/shapes.sh"

KERNELS=()
for f in "$D"/*.ws.cu; do
  x=$(basename "$f" .ws.cu)
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $x "* ]]; then continue; fi  # ONLY="a b": those kernels
  if [ -z "${SHAPES[$x]+set}" ]; then echo "run.sh: no shapes for $x, skipped" | tee -a "$OUT/summary.txt"; continue; fi
  KERNELS+=("$x")
done

{
  echo "host: $(hostname)  date: $(date)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
  "$NVCC" --version 2>&1 | tail -2
  echo "kernels: ${#KERNELS[@]}  JOBS=$JOBS RJOBS=$RJOBS"
} > "$OUT/env.txt"
cat "$OUT/env.txt"

# ---- build (rewritten files first: they take the longest) -----------------
NVFLAGS="-O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude"
build_one() {  # X variant(new|orig) source
  local x=$1 v=$2 src=$3 t=$(date +%s) rc
  timeout 420 "$NVCC" $NVFLAGS "$src" "$D/${x}_main.cu" -o "$B/$x.$v" > "$OUT/build/$x.$v.log" 2>&1
  rc=$?
  echo "$rc $(( $(date +%s) - t ))" > "$OUT/build/$x.$v.rc"
}
throttle() {  # wait until fewer than $1 background jobs run
  while [ "$(jobs -rp | wc -l)" -ge "$1" ]; do wait -n 2>/dev/null || sleep 1; done
}
echo "building ${#KERNELS[@]} x 2 executables, $JOBS at a time ..."
for x in "${KERNELS[@]}"; do
  rm -f "$B/$x.new" "$B/$x.orig"
  throttle "$JOBS"; build_one "$x" new "$D/$x.ws.cu" &
done
for x in "${KERNELS[@]}"; do
  throttle "$JOBS"; build_one "$x" orig "$D/$x.cu" &
done
wait
echo "builds done in $(( $(date +%s) - T0 )) s"

NBUILDFAIL=0
declare -A BUILT=()
for x in "${KERNELS[@]}"; do
  ok=1
  for v in orig new; do
    read -r rc secs < "$OUT/build/$x.$v.rc" 2>/dev/null || { rc=255; secs=?; }
    if [ "$rc" != 0 ] || [ ! -x "$B/$x.$v" ]; then
      ok=0; NBUILDFAIL=$((NBUILDFAIL + 1))
      echo "BUILD FAIL $x.$v (rc=$rc, ${secs}s), first lines of $OUT/build/$x.$v.log:" | tee -a "$OUT/summary.txt"
      grep -v 'unrecognized #pragma\|^ *#pragma tawa\|^ *\^ *$\|^Remark: The warnings' "$OUT/build/$x.$v.log" | head -n 15 | sed 's/^/    /' | tee -a "$OUT/summary.txt"
    fi
  done
  [ $ok = 1 ] && BUILT[$x]=1
done

# ---- run and compare ------------------------------------------------------
run_kernel() {  # X -> $OUT/run/X.results, one line per shape
  local x=$1 s t args so sn rco rcn res
  : > "$OUT/run/$x.results"
  for s in ${SHAPES[$x]}; do
    args=${s//:/ }; t=${s//:/x}
    so="$B/out/$x.$t.orig.f32"; sn="$B/out/$x.$t.new.f32"
    rm -f "$so" "$sn"
    timeout 20 "$B/$x.orig" $args "$so" > "$OUT/run/$x.$t.orig.log" 2>&1; rco=$?
    timeout 20 "$B/$x.new" $args "$sn" > "$OUT/run/$x.$t.new.log" 2>&1; rcn=$?
    if [ $rco != 0 ] || [ ! -s "$so" ]; then
      res="FAIL nan nan orig-run-failed(rc=$rco):$(tail -n 2 "$OUT/run/$x.$t.orig.log" | tr '\n' ' ')"
    elif [ $rcn != 0 ] || [ ! -s "$sn" ]; then
      res="FAIL nan nan new-run-failed(rc=$rcn$([ $rcn = 124 ] && echo ',timeout')):$(tail -n 2 "$OUT/run/$x.$t.new.log" | tr '\n' ' ')"
    else
      res=$(python3 "$D/compare.py" "$so" "$sn" 2>&1 | tail -n 1)
      case "$res" in PASS*|FAIL*) ;; *) res="FAIL nan nan compare-error:$res" ;; esac
    fi
    rm -f "$so" "$sn"
    echo "$s $res" >> "$OUT/run/$x.results"
  done
}
T1=$(date +%s)
for x in "${KERNELS[@]}"; do
  [ -n "${BUILT[$x]+set}" ] || continue
  throttle "$RJOBS"; run_kernel "$x" &
done
wait
echo "runs done in $(( $(date +%s) - T1 )) s"

NPASS=0; NFAIL=0
for x in "${KERNELS[@]}"; do
  [ -n "${BUILT[$x]+set}" ] || continue
  while read -r s verdict maxdiff maxorig note; do
    if [ "$verdict" = PASS ]; then NPASS=$((NPASS + 1)); else NFAIL=$((NFAIL + 1)); fi
    printf '%-30s %-18s %-4s maxdiff=%-12s max|orig|=%-12s %s\n' "$x" "${s//:/x}" "$verdict" \
      "$maxdiff" "$maxorig" "$note" | tee -a "$OUT/summary.txt"
  done < "$OUT/run/$x.results"
done
echo "total time $(( $(date +%s) - T0 )) s" | tee -a "$OUT/summary.txt"
echo "legacy corpus: $NPASS PASS, $NFAIL FAIL, $NBUILDFAIL build failures" | tee -a "$OUT/summary.txt"

tar -czf "$OUT.tar.gz" -C "$(dirname "$OUT")" "$(basename "$OUT")" && echo "wrote $OUT.tar.gz"
