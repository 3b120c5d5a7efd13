#!/usr/bin/env bash
# Benchmarks the rewritten GEMM examples against cuBLAS on a Hopper GPU.
#
# usage: bash bench/gemm-bench.sh [GEN_DIR [OUT_DIR]]
#   GEN_DIR  where tawa-rewrite wrote the examples (default: gen/, relative to
#            the repository root): gemm.ws.cu, gemm-f16.ws.cu,
#            gemm-batched.ws.cu, and for the layouts of
#            examples/gemm-layouts gemm-<layout>.ws.cu (rewritten as is) and
#            gemm-<layout>-f16.ws.cu (rewritten with -DGEMM_ELEMENT=half),
#            layout nn, tn or tt
#   OUT_DIR  logs, JSON and the chart (default: ${OUT:-results/bench})
# environment:
#   VARIANTS        which variants, of: bf16 fp16 bf16-batched, and
#                   bf16-<layout> fp16-<layout> for layout nn, tn, tt
#                   (default: bf16 fp16 bf16-batched)
#   PAIRS, WARMUP   timed and warm-up (ours, cuBLAS) pairs per shape
#                   (default 50 and 5)
#   DENSE_SHAPES    shapes of bf16, fp16 and the layouts (default: the list
#                   below)
#   BATCHED_SHAPES  shapes of bf16-batched, BxMxNxK (default 8x2048x2048x2048)
#   NVCC (default nvcc), BUILD_DIR (default build/bench),
#   BUILD_TIMEOUT (s per build, default 150), RUN_TIMEOUT (s per variant's
#   gemm-check run, default 75), PYTHON (default python3).
#
# Per variant (each one runs even when another failed):
#   1. build examples/gemm/main.cu with the rewritten file (the builds run in
#      parallel): nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a
#      -Iinclude -Iexamples/<example> -DGEMM_ELEMENT=<element>
#      -DGEMM_LAYOUT=<layout> -Xptxas -v
#      ... -lcublas, keeping the output in OUT_DIR/build-<variant>.log; a
#      ptxas warning, a "(C7xxx)" remark (setmaxnreg ignored, wgmma
#      serialized...) or a non-zero spill fails the variant;
#   2. run gemm-check --time on its shapes: each shape is checked first
#      (poisoned output, relative Frobenius error against cuBLAS and an fp64
#      spot check, both under 1e-2), then, when it passes, timed against
#      cuBLAS in the same process, interleaved, on rotating input sets larger
#      than L2; medians of the timed pairs (OUT_DIR/<variant>.json).
# Then bench/plot.py merges everything into OUT_DIR/gemm-bench.json (rows,
# device, date, per-variant geometric mean and minimum of ours/cuBLAS),
# draws OUT_DIR/gemm-bench.png and prints the table, last. Exit status 1 when
# any variant failed (missing source, build, ptxas, check, run or plot).
#
# Time: three builds in parallel (about a minute), then about 10-20 s per
# variant; the timeouts bound the worst case at 150 + 3 x 75 s (about 6.5 min).
set -euo pipefail

invoked_from=$PWD
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Arguments are relative to the caller's directory, defaults to the repository.
absolute() {
  case $1 in
  /*) printf '%s\n' "$1" ;;
  *) printf '%s\n' "$2/$1" ;;
  esac
}
if [[ $# -gt 2 ]]; then
  echo "usage: $0 [GEN_DIR [OUT_DIR]]" >&2
  exit 2
fi
if [[ $# -ge 1 ]]; then
  gen=$(absolute "$1" "$invoked_from")
else
  gen=$repo/gen
fi
if [[ $# -ge 2 ]]; then
  out=$(absolute "$2" "$invoked_from")
else
  out=$(absolute "${OUT:-results/bench}" "$repo")
fi

cd "$repo"
nvcc=${NVCC:-nvcc}
python=${PYTHON:-python3}
build=$(absolute "${BUILD_DIR:-build/bench}" "$repo")
build_timeout=${BUILD_TIMEOUT:-150}
run_timeout=${RUN_TIMEOUT:-75}
pairs=${PAIRS:-50}
warmup=${WARMUP:-5}
read -r -a variants <<<"${VARIANTS:-bf16 fp16 bf16-batched}"

# M = N = K in {4096, 6144}, then M = N = 8192 with K from 512 to 16384
# (8192^3 among them).
dense_shapes=${DENSE_SHAPES:-4096x4096x4096,6144x6144x6144,8192x8192x512,8192x8192x1024,8192x8192x2048,8192x8192x4096,8192x8192x8192,8192x8192x16384}
# 8 matrices of 2048 x 2048 x 2048: the expert projections of an MoE layer
# (8 experts, 2048 tokens routed to each, 2048 -> 2048, weights stored
# out x in as nn.Linear keeps them: the NT layout). Same FLOPs as 4096^3, so
# the two rows compare; 8 x 128 tiles of 128 x 256, about 7.8 waves on 132 SMs.
batched_shapes=${BATCHED_SHAPES:-8x2048x2048x2048}

# Per variant: the example directory, the rewritten file's name in GEN_DIR,
# the element type and the operand layout.
declare -A example=([bf16]=gemm [fp16]=gemm-f16 [bf16-batched]=gemm-batched)
declare -A rewritten=([bf16]=gemm [fp16]=gemm-f16 [bf16-batched]=gemm-batched)
declare -A element=([bf16]=bf16 [fp16]=half [bf16-batched]=bf16)
declare -A layout=([bf16]=nt [fp16]=nt [bf16-batched]=nt)
declare -A shapes=([bf16]=$dense_shapes [fp16]=$dense_shapes [bf16-batched]=$batched_shapes)
for l in nn tn tt; do
  example[bf16-$l]=gemm-layouts example[fp16-$l]=gemm-layouts
  rewritten[bf16-$l]=gemm-$l rewritten[fp16-$l]=gemm-$l-f16
  element[bf16-$l]=bf16 element[fp16-$l]=half
  layout[bf16-$l]=$l layout[fp16-$l]=$l
  shapes[bf16-$l]=$dense_shapes shapes[fp16-$l]=$dense_shapes
done

for v in "${variants[@]}"; do
  if [[ -z ${example[$v]+set} ]]; then
    echo "gemm-bench: unknown variant '$v' (want one of: ${!example[*]})" >&2
    exit 2
  fi
done

mkdir -p "$out" "$build"
# Leave nothing of an earlier run that this one might not overwrite.
for v in "${!example[@]}"; do
  rm -f "$out/build-$v.log" "$out/run-$v.log" "$out/$v.json"
done
rm -f "$out"/{status.tsv,gemm-bench.json,gemm-bench.png,nvidia-smi.csv}

failed=0
declare -A status note src sha
set_status() { # variant status note
  status[$1]=$2
  note[$1]=$3
  if [[ $2 == FAIL ]]; then failed=1; fi
}

smi() { # label: one CSV line of the card's state
  command -v nvidia-smi >/dev/null 2>&1 || return 0
  local fields=name,driver_version,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu line
  # Older drivers call the last field clocks_throttle_reasons.active.
  line=$(nvidia-smi --query-gpu="$fields,clocks_event_reasons.active" --format=csv,noheader 2>/dev/null) ||
    line=$(nvidia-smi --query-gpu="$fields,clocks_throttle_reasons.active" --format=csv,noheader 2>&1) || true
  printf '%s, %s\n' "$1" "$line" >>"$out/nvidia-smi.csv"
}
echo "when, name, driver, clocks.sm, clocks.max.sm, power.draw, power.limit, temperature.gpu, clock event reasons" >"$out/nvidia-smi.csv"
smi before

# 1. Builds, in parallel.
nvcc_flags=(-O3 -std=c++17 "-gencode=arch=compute_90a,code=sm_90a" -Iinclude)
declare -A build_pid
for v in "${variants[@]}"; do
  ex=${example[$v]}
  src[$v]=$gen/${rewritten[$v]}.ws.cu
  sha[$v]=
  log=$out/build-$v.log
  if [[ ! -f ${src[$v]} ]]; then
    set_status "$v" FAIL "missing ${src[$v]} (run tawa-rewrite first)"
    continue
  fi
  sha[$v]=$(sha256sum "${src[$v]}" | cut -d' ' -f1)
  cmd=("$nvcc" "${nvcc_flags[@]}" "-Iexamples/$ex" "-DGEMM_ELEMENT=${element[$v]}"
    "-DGEMM_LAYOUT=${layout[$v]}"
    -Xptxas -v "${src[$v]}" examples/gemm/main.cu -o "$build/gemm-check-$v" -lcublas)
  echo "== build $v: ${cmd[*]}"
  {
    echo "${cmd[*]}"
    timeout -k 10 "$build_timeout" "${cmd[@]}"
  } >"$log" 2>&1 &
  build_pid[$v]=$!
done
for v in "${variants[@]}"; do
  [[ -n ${build_pid[$v]+set} ]] || continue
  log=$out/build-$v.log
  rc=0
  wait "${build_pid[$v]}" || rc=$?
  if [[ $rc -ne 0 ]]; then
    if [[ $rc -eq 124 || $rc -eq 137 ]]; then
      set_status "$v" FAIL "build timed out after ${build_timeout}s; see $log"
    else
      set_status "$v" FAIL "build failed (exit $rc); see $log"
    fi
    tail -n 20 "$log"
    continue
  fi
  warnings=$(grep -ciE 'ptxas.*warning|Potential Performance Loss' "$log" || true)
  remarks=$(grep -cF '(C7' "$log" || true)
  spills=$(grep -cE '(^|[^0-9])[1-9][0-9]* bytes spill (stores|loads)' "$log" || true)
  if [[ $warnings -ne 0 || $remarks -ne 0 || $spills -ne 0 ]]; then
    set_status "$v" FAIL "ptxas: $warnings warning(s), $remarks C7 remark(s), $spills spill line(s); see $log"
    grep -iE 'ptxas.*warning|Potential Performance Loss|\(C7|[1-9][0-9]* bytes spill' "$log" | head -n 10 || true
  else
    set_status "$v" built "ptxas clean"
  fi
done

# 2. Check, then time, each variant's shapes.
for v in "${variants[@]}"; do
  [[ ${status[$v]} == built ]] || continue
  log=$out/run-$v.log
  cmd=("$build/gemm-check-$v" --label "$v" --shapes "${shapes[$v]}" --time
    --pairs "$pairs" --warmup "$warmup" --json "$out/$v.json")
  echo "== run $v: ${cmd[*]}"
  rc=0
  timeout -k 10 "$run_timeout" "${cmd[@]}" 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
  total=$(tr ',' '\n' <<<"${shapes[$v]}" | grep -c .)
  passed=$(grep -cE "^$v +([0-9]+x){2,3}[0-9]+ .* PASS" "$log" || true)
  if [[ $rc -eq 124 || $rc -eq 137 ]]; then
    set_status "$v" FAIL "timed out after ${run_timeout}s; $passed/$total shapes passed"
  elif [[ $rc -ne 0 ]]; then
    set_status "$v" FAIL "exit $rc; $passed/$total shapes passed; see $log"
  else
    set_status "$v" ok "$passed/$total shapes passed"
  fi
done
smi after

# 3. Merge, draw and print the table (last).
{
  printf 'variant\texample\telement\tsource\tsha256\tshapes\tstatus\tnote\n'
  for v in "${variants[@]}"; do
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "${example[$v]}" \
      "${element[$v]}" "${src[$v]}" "${sha[$v]}" "${shapes[$v]}" \
      "${status[$v]}" "${note[$v]}"
  done
} >"$out/status.tsv"
commit=$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)
echo
rc=0
"$python" bench/plot.py --out-dir "$out" --status "$out/status.tsv" \
  --nvidia-smi "$out/nvidia-smi.csv" --pairs "$pairs" --warmup "$warmup" \
  --commit "$commit" --command "bash bench/gemm-bench.sh $*" || rc=$?
if [[ $rc -eq 3 ]]; then
  # The table is out; only the chart is missing.
  failed=1
  echo "gemm-bench: no chart (bench/plot.py could not draw it)"
elif [[ $rc -ne 0 ]]; then
  failed=1
  echo "gemm-bench: bench/plot.py failed (exit $rc); the gemm-check lines:"
  for v in "${variants[@]}"; do
    if [[ -f $out/run-$v.log ]]; then grep -E "^$v +([0-9]+x){2,3}[0-9]+ " "$out/run-$v.log" || true; fi
  done
  for v in "${variants[@]}"; do
    printf '%-13s %-6s %s\n' "$v" "${status[$v]}" "${note[$v]}"
  done
fi
if [[ $failed -ne 0 ]]; then
  echo "RESULT: FAIL ($out)"
  exit 1
fi
echo "RESULT: ok ($out)"
