#!/usr/bin/env bash
# The few-rows twins' slots of two K steps checked on the layouts and element
# types results/h200/few-rows/gpu.sh did not build: the sweep's dense-tn,
# dense-tt and fp8 parts built from GEN (bench/sweep-rewrite.sh), timed
# briefly, then ragged launches of at most 64 rows (K ending mid-slot, odd
# slot counts) checked with the 64- and 128-column kernels forced
# (TAWA_NARROW) and the split tail on its own choice and forced.
#   bash results/h100/decode/slots2/checks.sh OUT GEN
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." && pwd)
cd "$repo"
out=${1:?usage: checks.sh OUT GEN}
gen=${2:?}
mkdir -p "$out/sweep"
SHAPES=16x4096x4096,64x2048x2048 PAIRS=3 bash bench/gemm-sweep.sh "$gen" "$out/sweep" dense-tn dense-tt fp8 \
  >"$out/sweep.log" 2>&1 || echo "checks: sweep failed; see sweep.log"
grep -E "build failed|ptxas warning" "$out/sweep.log"
ragged=1x4096x4096,7x1000x333,33x5000x3001,64x128x64,17x4096x4160,33x1000x200,64x512x104,48x8192x1088,64x96x136,5x300x65,64x4096x192,64x2048x2048
for n in 64 128; do
  for sp in auto force; do
    for b in build/sweep-tn/gemm-check-bf16-tn build/sweep-tn/gemm-check-fp16-tn \
      build/sweep-tt/gemm-check-bf16-tt build/sweep-tt/gemm-check-fp16-tt; do
      [[ -x $b ]] && TAWA_NARROW=$n TAWA_SPLIT_TAIL=$sp timeout 100 "$b" --label "n$n-$sp-$(basename "$b")" \
        --shapes "$ragged" 2>&1 | grep -E "PASS|FAIL" >>"$out/forced.log"
    done
    [[ -x build/sweep-fp8/check ]] && TAWA_NARROW=$n TAWA_SPLIT_TAIL=$sp timeout 100 build/sweep-fp8/check \
      --label "n$n-$sp-fp8" --shapes 16x1008x3008,64x4096x4096,48x2000x512,64x512x144,33x1024x4112 2>&1 |
      grep -E "PASS|FAIL" >>"$out/forced.log"
  done
done
echo "checks: $(grep -c PASS "$out/forced.log") PASS, $(grep -c FAIL "$out/forced.log") FAIL"
grep FAIL "$out/forced.log" | head
