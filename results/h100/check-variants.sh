#!/usr/bin/env bash
# On the GPU machine: builds gemm-check for the rewritten examples (gen/*.ws.cu)
# and the variants of make-variants.sh (gen/variants/*.ws.cu), checks and
# times each against cuBLAS at shapes with whole and ragged tiles, and runs
# compute-sanitizer racecheck and synccheck on small shapes. The examples
# (bf16, fp16, bf16-batched) are also checked and sanitized with the last
# partial wave split by K in every launch (TAWA_SPLIT_TAIL=force), at shapes
# with more tiles than SMs. Logs go to OUT_DIR/<variant>-{check,racecheck,
# synccheck}.log and <variant>-split-*.log; a table is printed last.
#
# usage: bash results/h100/check-variants.sh OUT_DIR [VARIANT...]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
out=${1:?usage: check-variants.sh OUT_DIR [VARIANT...]}
shift
mkdir -p "$out" build/variants
declare -A src=([bf16]=gen/gemm.ws.cu [fp16]=gen/gemm-f16.ws.cu
  [bf16-batched]=gen/gemm-batched.ws.cu)
declare -A inc=([bf16]=gemm [fp16]=gemm-f16 [bf16-batched]=gemm-batched)
declare -A elem=([fp16]=half)
for v in cluster nonpersistent direct n192 n64 pingpong shape-auto shape-y; do
  src[$v]=gen/variants/$v.ws.cu
  inc[$v]=gemm
done
variants=("$@")
[[ ${#variants[@]} -gt 0 ]] || variants=(bf16 fp16 bf16-batched cluster nonpersistent direct n192 n64 pingpong shape-auto shape-y)

for v in "${variants[@]}"; do
  (nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
    -Iexamples/${inc[$v]} -DGEMM_ELEMENT=${elem[$v]:-bf16} -Xptxas -v \
    "${src[$v]}" examples/gemm/main.cu -o build/variants/$v -lcublas \
    >"$out/$v-build.log" 2>&1 || echo "$v: build failed") &
done
wait

declare -A status
for v in "${variants[@]}"; do
  if [[ ! -x build/variants/$v ]]; then
    status[$v]="build failed"
    continue
  fi
  if grep -qiE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill' "$out/$v-build.log"; then
    status[$v]="ptxas warning"
    continue
  fi
  if [[ $v == bf16-batched ]]; then
    timed=4x2048x2048x2048,3x1000x1016x512,2x300x200x333
    small=3x256x768x320,2x300x200x128,2x300x201x128,2x200x136x77
  else
    # Whole tiles, ragged tiles, an output whose leading dimension TMA
    # cannot address (333 or 8191 columns: the staged tile is copied row by
    # row), and operands whose leading dimension it cannot (K = 333 or 4095:
    # aligned copies; the graph check, under capture, runs the kernel as
    # written instead).
    timed=4096x4096x4096,8192x8192x512,1000x1016x512,777x333x512,300x200x333,8192x8191x1024,4096x4096x4095
    small=256x768x320,300x200x128,300x201x128,200x136x77
  fi
  # Several tiles per CTA, so that the ping-pong consumers pass turns.
  [[ $v == pingpong ]] && small=$small,2304x2056x192
  timeout 300 build/variants/$v --label "$v" --shapes "$timed" --time --pairs 20 \
    >"$out/$v-check.log" 2>&1
  rc=$?
  for tool in racecheck synccheck; do
    timeout 300 compute-sanitizer --tool $tool build/variants/$v --label "$v" \
      --shapes "$small" >"$out/$v-$tool.log" 2>&1
    rc=$((rc | $?))
  done
  if [[ $v == bf16 || $v == fp16 || $v == bf16-batched ]]; then
    if [[ $v == bf16-batched ]]; then
      split_timed=4x4096x4096x1024
      split_small=2x1024x2560x320
    else
      split_timed=4096x4096x4096,8192x8192x512,8000x8064x4000
      split_small=1792x2560x320
    fi
    TAWA_SPLIT_TAIL=force timeout 300 build/variants/$v --label "$v-split" \
      --shapes "$split_timed" --time --pairs 10 >"$out/$v-split-check.log" 2>&1
    rc=$((rc | $?))
    for tool in racecheck synccheck; do
      TAWA_SPLIT_TAIL=force timeout 300 compute-sanitizer --tool $tool \
        build/variants/$v --label "$v-split" --shapes "$split_small" \
        >"$out/$v-split-$tool.log" 2>&1
      rc=$((rc | $?))
    done
  fi
  fails=$(cat "$out/$v-check.log" "$out/$v"-*check.log | grep -c FAIL)
  hazards=$(grep -hE "RACECHECK SUMMARY|ERROR SUMMARY" "$out/$v"-*racecheck.log "$out/$v"-*synccheck.log | tr '\n' ' ')
  status[$v]="exit $rc, $fails FAIL, $hazards"
done

echo
for v in "${variants[@]}"; do
  ratios=$(grep -oE "^[^ ]+ +[0-9x]+ .*ours/cuBLAS [0-9.]+" "$out/$v-check.log" 2>/dev/null |
    awk '{print $2 "=" $NF}' | tr '\n' ' ')
  printf '%-14s %s | %s\n' "$v" "${status[$v]}" "$ratios"
done
