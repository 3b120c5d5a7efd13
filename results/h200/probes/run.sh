#!/bin/bash
# GPU correctness check of the probe kernels (/tmp/probeA, /tmp/probeB) that
# tawa-rewrite rewrites: each X.ws.cu (rewritten) against X.cu (original),
# both linked with the same driver X_main.cu. Structure after
# results/h200/legacy-corpus/gpu.sh.
#
# usage (from the repo root /work/main, on an sm_90a GPU machine):
#   bash gen/probes/run.sh OUTDIR
# Prints one line per (kernel, shape) and a PASS/FAIL/build-failure count;
# logs under OUTDIR. Env: JOBS (parallel builds, default 8), RJOBS (kernels
# run concurrently on the GPU, default 4), NVCC, ONLY="X Y" (a subset).
set -u

if [ $# -lt 1 ]; then echo "usage: bash gen/probes/run.sh OUTDIR" >&2; exit 1; fi
OUT=$1
JOBS=${JOBS:-8}
RJOBS=${RJOBS:-4}
NVCC=${NVCC:-nvcc}
command -v "$NVCC" > /dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
D=gen/probes
B=build/probes
if [ ! -f "$D/compare.py" ] || [ ! -d include/tawa ]; then
  echo "run.sh: run from the repo root (gen/probes/compare.py and include/tawa needed)" >&2
  exit 1
fi
mkdir -p "$OUT/build" "$OUT/run" "$OUT/f32" "$B"
OUT=$(cd "$OUT" && pwd)
: > "$OUT/summary.txt"
T0=$(date +%s)

# ---- shapes (colon-separated driver arguments before the output file) ------
# Below 2^24 flops the rewritten launcher runs the original kernel (fallback);
# the larger shapes run the warp-specialized path (ragged unaligned ones over
# 2^28 flops through its operand copy).
RAGGED="7:5:3 257:136:264 1000:1000:520 1001:999:517 1024:1024:1024"   # M:N:K, any sizes
declare -A SHAPES=(
  [Ak01_guide_nobounds_half]="48:32:16 128:128:128 256:512:384 1024:1024:1024 400:304:208"      # 16|M,N,K
  [Ak02_tiled32_bounds_alphabeta_bf16]="$RAGGED"                                                 # alpha 1.5 beta 0.5
  [Ak03_blocktiling1d_tmpl_half]="64:64:8 128:128:128 256:512:384 1024:1024:1024 320:192:200"   # 64|M,N 8|K
  [Ak04_blocktiling2d_bias_relu_bf16]="128:128:8 128:128:128 256:512:384 1024:1024:1024 384:256:200"  # 128|M,N 8|K
  [Ak05_vectorize_transposeA_half]="128:128:16 128:128:128 256:512:384 1024:1024:1024 384:256:208"    # 128|M,N 16|K
  [Ak06_warptiling_helpers_bf16]="128:128:16 128:128:128 256:512:384 1024:1024:1024 384:256:208"      # 128|M,N 16|K
  [Ak07_double_buffer_prefetch_half]="$RAGGED"
  [Ak08_from1_regprefetch_transA_bf16]="128:128:16 128:128:128 256:512:384 1024:1024:1024 384:256:208"  # 128|M,N 16|K
  [Ak09_batched_strided_alphabeta_half]="7:5:3:2 257:136:264:3 1000:1000:520:2 1001:999:517:2 1024:1024:1024:2"  # M:N:K:batch
  [Ak10_linear_nt_bias_relu_bf16]="$RAGGED"
  [Ak11_cp_async_pipeline_2stage_half]="64:64:32 128:64:64 256:512:384 1024:1024:1024 384:320:224"   # 64|M,N 32|K
  [Ak12_cp_async_ptx_3stage_zfill_bf16]="64:64:32:0.5 100:200:72:1.5 517:264:1032:-0.75 1000:1000:1000:1.5 1024:1024:1024:0.5"  # M:N:K:alpha, 8|N,K
  [Ak13_cg_colmajor_blas_half]="7:5:3:0 257:136:264:0 1001:999:517:0 1024:1024:1024:0 1000:1000:520:8"  # M:N:K:ld-pad
  [Ak14_template_dynsmem_1dblock_half]="7:5:3:16 257:136:264:32 1001:999:517:16 1024:1024:1024:16 1024:1024:1024:32"  # M:N:K:tile
  [Ak15_unsigned_TN_zero_then_load_half]="$RAGGED"                                               # A is K x M
  [Bk01_wmma_blog_alpha_beta]="16:16:16 48:80:32 256:512:384 1024:1024:1024 400:304:208"       # 16|M,N,K
  [Bk03_wmma_smem_2x2_warps]="64:64:16 48:80:77 256:512:384 1024:1024:1024 1008:992:517"       # 16|M,N
  [Bk04_wmma_double_buffer_bf16]="128:64:32 128:64:96 256:128:64 1024:1024:1024 384:192:224"   # 128|M 64|N 32|K
  [Bk05_wmma_linear_bias_relu_staged]="$RAGGED"
  [Bk06_wmma_global_2x2_frags]="32:32:16 96:160:48 256:512:384 1024:1024:1024 352:224:208"     # 32|M,N 16|K
  [Bk08_wmma_batched_strided_qk]="16:16:16:2 48:80:32:3 256:512:384:2 400:304:208:4 1024:1024:1024:2"  # M:N:K:batch, 16|M,N,K
  [Bk10_conv1x1_nhwc_smem]="1:7:5:3:5 2:28:28:64:128 4:17:15:517:999 8:56:56:256:256 1:32:32:1024:1024"  # N:H:W:C:K
  [Bk12_conv_kxk_taps_nhwc]="1:8:8:3:5:3:3:1:1 2:28:28:64:128:3:3:1:1 4:30:30:64:100:3:3:2:1 3:17:19:128:72:5:5:1:2 1:32:32:1024:1024:1:1:1:0"  # N:H:W:C:K:R:S:stride:pad
  [Bk15_wmma_template_dispatch]="16:16:16:0 48:80:32:1 400:304:208:1 1024:1024:1024:0 1024:1024:1024:1"  # M:N:K:dtype(0 half,1 bf16)
)

KERNELS=()
for f in "$D"/*.ws.cu; do
  x=$(basename "$f" .ws.cu)
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $x "* ]]; then continue; fi
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
NVFLAGS="-O2 -gencode=arch=compute_90a,code=sm_90a -std=c++17 -Iinclude -w"
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
    so="$OUT/f32/$x.$t.orig.f32"; sn="$OUT/f32/$x.$t.new.f32"
    rm -f "$so" "$sn"
    timeout 60 "$B/$x.orig" $args "$so" > "$OUT/run/$x.$t.orig.log" 2>&1; rco=$?
    timeout 60 "$B/$x.new" $args "$sn" > "$OUT/run/$x.$t.new.log" 2>&1; rcn=$?
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
    printf '%-38s %-26s %-4s maxdiff=%-12s max|orig|=%-12s %s\n' "$x" "${s//:/x}" "$verdict" \
      "$maxdiff" "$maxorig" "$note" | tee -a "$OUT/summary.txt"
  done < "$OUT/run/$x.results"
done
rmdir "$OUT/f32" 2>/dev/null
echo "total time $(( $(date +%s) - T0 )) s" | tee -a "$OUT/summary.txt"
echo "probes: $NPASS PASS, $NFAIL FAIL, $NBUILDFAIL build failures" | tee -a "$OUT/summary.txt"
