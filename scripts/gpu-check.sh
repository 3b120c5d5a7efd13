#!/usr/bin/env bash
# Builds, checks and times the GEMM example on a machine with a Hopper GPU.
#
# usage: scripts/gpu-check.sh [REWRITTEN_CU [OUT_DIR]]
#   REWRITTEN_CU  what tawa-rewrite made of examples/gemm/gemm.cu
#                 (default: gen/gemm.ws.cu, relative to the repository root)
#   OUT_DIR       logs and JSON (default: ${OUT:-results})
# environment: NVCC (default nvcc), BUILD_DIR (default build/gpu-check),
#   RUN_TIMEOUT (seconds per gemm-check run, default 600).
#
# Steps (each one runs even when an earlier one failed, if its inputs exist):
#   1. build the reference: examples/gemm/gemm.cu (the kernel as written) with
#      examples/gemm/main.cu;
#   2. check it against cuBLAS at 1000x1000x1000 and 512x768x320 (the
#      reference is slow: small shapes only);
#   3. build the rewritten file with main.cu, keeping ptxas's -v output in
#      OUT_DIR/ptxas-rewritten.log; a ptxas warning, a "Potential Performance
#      Loss" remark (C7xxx: setmaxnreg ignored, wgmma serialized) or a
#      register spill fails the step;
#   4. check it at 4096x4096x4096, 8192x8192x1024 and 1000x1000x1000;
#   5. time it against cuBLAS at 4096x4096x4096 and 8192x8192x1024.
# Without the rewritten file only steps 1-2 run. A short summary table comes
# last; the exit status is 1 when any step failed.
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
if [[ $# -ge 1 ]]; then
  ws_src=$(absolute "$1" "$invoked_from")
else
  ws_src=$repo/gen/gemm.ws.cu
fi
if [[ $# -ge 2 ]]; then
  out=$(absolute "$2" "$invoked_from")
else
  out=$(absolute "${OUT:-results}" "$repo")
fi
if [[ $# -gt 2 ]]; then
  echo "usage: $0 [REWRITTEN_CU [OUT_DIR]]" >&2
  exit 2
fi

cd "$repo"
nvcc=${NVCC:-nvcc}
build=$(absolute "${BUILD_DIR:-build/gpu-check}" "$repo")
run_timeout=${RUN_TIMEOUT:-600}
# main.cu takes the example's header from -Iexamples/gemm and its element
# type from GEMM_ELEMENT (bf16 for this example).
nvcc_flags=(-O3 -std=c++17 "-gencode=arch=compute_90a,code=sm_90a"
  -Iinclude -Iexamples/gemm -DGEMM_ELEMENT=bf16)
mkdir -p "$out" "$build"
# Leave nothing of an earlier run that this one might not overwrite.
rm -f "$out"/{build-reference,ptxas-rewritten,reference,tawa,tawa-time}.log \
  "$out"/{reference-check,tawa-check,tawa-time,summary}.json "$out/nvidia-smi.csv"

step_names=()
step_status=()
step_notes=()
failed=0
record() { # name status note
  step_names+=("$1")
  step_status+=("$2")
  step_notes+=("$3")
  if [[ $2 == FAIL ]]; then failed=1; fi
}

# build NAME LOG SOURCE... : nvcc SOURCE... examples/gemm/main.cu -> $build/NAME
build_check() {
  local name=$1 log=$2 extra=$3
  shift 3
  local -a extra_flags=()
  if [[ -n $extra ]]; then read -r -a extra_flags <<<"$extra"; fi
  echo "== build $name: $nvcc ${nvcc_flags[*]} ${extra_flags[*]} $* examples/gemm/main.cu -lcublas"
  local rc=0
  "$nvcc" "${nvcc_flags[@]}" "${extra_flags[@]}" "$@" examples/gemm/main.cu \
    -o "$build/$name" -lcublas >"$log" 2>&1 || rc=$?
  cat "$log"
  return "$rc"
}

# run_check STEP LABEL BINARY JSON SHAPES [--time]
run_check() {
  local step=$1 label=$2 bin=$3 json=$4 shapes=$5
  shift 5
  local log=$out/$label${1:+-time}.log
  echo "== $step: $bin --label $label --shapes $shapes $*"
  local rc=0
  timeout -k 10 "$run_timeout" "$bin" --label "$label" --shapes "$shapes" \
    --json "$json" "$@" 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
  local passed total
  passed=$(grep -cE "^$label +([0-9]+x){2,3}[0-9]+ .* PASS" "$log" || true)
  total=$(grep -cE "^$label +([0-9]+x){2,3}[0-9]+ " "$log" || true)
  if [[ $rc -eq 124 || $rc -eq 137 ]]; then
    record "$step" FAIL "timed out after ${run_timeout}s ($passed/$total shapes passed)"
  elif [[ $rc -ne 0 ]]; then
    record "$step" FAIL "exit $rc, $passed/$total shapes passed; see $log"
  else
    record "$step" ok "$passed/$total shapes passed; $json"
  fi
}

if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu \
    --format=csv >"$out/nvidia-smi.csv" 2>&1 || true
fi

# 1-2: the reference.
ref_bin=$build/gemm-check-reference
if build_check gemm-check-reference "$out/build-reference.log" "" examples/gemm/gemm.cu; then
  record "build reference" ok "$ref_bin"
  run_check "check reference" reference "$ref_bin" "$out/reference-check.json" \
    1000x1000x1000,512x768x320
else
  record "build reference" FAIL "see $out/build-reference.log"
fi

# 3-5: the rewritten kernel.
ws_bin=$build/gemm-check-rewritten
ptxas_log=$out/ptxas-rewritten.log
if [[ ! -f $ws_src ]]; then
  record "rewritten kernel" skipped "$ws_src not found: reference only"
elif build_check gemm-check-rewritten "$ptxas_log" "-Xptxas -v" "$ws_src"; then
  record "build rewritten" ok "$ws_bin"
  warnings=$(grep -ciE '^ptxas.*warning|Potential Performance Loss|\(C7[0-9]{3}\)' "$ptxas_log" || true)
  spills=$(grep -cE '(^|[^0-9])[1-9][0-9]* bytes spill (stores|loads)' "$ptxas_log" || true)
  if [[ $warnings -ne 0 || $spills -ne 0 ]]; then
    record "ptxas clean" FAIL "$warnings warning(s), $spills spilling function(s); see $ptxas_log"
  else
    record "ptxas clean" ok "$ptxas_log"
  fi
  run_check "check rewritten" tawa "$ws_bin" "$out/tawa-check.json" \
    4096x4096x4096,8192x8192x1024,1000x1000x1000
  run_check "time rewritten vs cuBLAS" tawa "$ws_bin" "$out/tawa-time.json" \
    4096x4096x4096,8192x8192x1024 --time
else
  record "build rewritten" FAIL "see $ptxas_log"
fi

# Machine-readable summary of the steps.
json_escape() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' <<<"$1"; }
{
  printf '{\n  "rewritten_source": "%s",\n  "steps": [' "$(json_escape "$ws_src")"
  for i in "${!step_names[@]}"; do
    if [[ $i -gt 0 ]]; then printf ','; fi
    printf '\n    {"step": "%s", "status": "%s", "note": "%s"}' \
      "$(json_escape "${step_names[$i]}")" "${step_status[$i]}" \
      "$(json_escape "${step_notes[$i]}")"
  done
  printf '\n  ],\n  "failed": %s\n}\n' "$([[ $failed -eq 0 ]] && echo false || echo true)"
} >"$out/summary.json"

# The table, last.
echo
device=$(cat "$out"/reference.log "$out"/tawa.log 2>/dev/null |
  sed -n 's/^gemm-check [^ ]* on \(.*\), seed [0-9]*$/\1/p' | head -n 1 || true)
echo "==== gpu-check summary (${device:-device unknown}) ===="
for i in "${!step_names[@]}"; do
  printf '%-26s %-8s %s\n' "${step_names[$i]}" "${step_status[$i]}" "${step_notes[$i]}"
done
echo "---- per shape (rel_err: ||C - C_cublas||_F / ||C_cublas||_F; spot: fp64 spot check; ours/cuBLAS in TFLOP/s) ----"
for log in "$out/reference.log" "$out/tawa.log" "$out/tawa-time.log"; do
  if [[ -f $log ]]; then grep -E '^[A-Za-z0-9_.-]+ +([0-9]+x){2,3}[0-9]+ ' "$log" || true; fi
done
if [[ $failed -ne 0 ]]; then
  echo "RESULT: FAIL"
  exit 1
fi
echo "RESULT: ok"
