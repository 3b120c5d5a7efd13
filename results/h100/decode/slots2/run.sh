#!/usr/bin/env bash
# The few-rows twins with slots of two K steps (NEW_GEN) against one step per
# slot (OLD_GEN), both from bench/sweep-rewrite.sh: the sweep's decode-like
# shapes timed with results/h200/few-rows/gpu.sh (dense-nt, dense-nn,
# epilogue; ragged checks and compute-sanitizer on NEW_GEN's builds), then
# ragged launches of at most 64 rows checked with the 64- and 128-column
# kernels forced (TAWA_NARROW) and the split tail on its own choice and forced.
#   bash results/h100/decode/slots2/run.sh OUT OLD_GEN NEW_GEN
set -u
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." && pwd)
cd "$repo"
out=${1:?usage: run.sh OUT OLD_GEN NEW_GEN}
old=${2:?} new=${3:?}
export PAIRS=15
RAGGED=1x4096x4096,7x1000x333,33x5000x3001,64x128x64,50x2048x8192,17x4000x1000,64x64x4096,17x4096x4160,33x1000x200,64x512x104,48x8192x1088,64x96x136,5x300x65,64x4096x192 \
  CHECKS=1 timeout 450 bash results/h200/few-rows/gpu.sh "$out/s2" "$old" "$new" dense-nt dense-nn epilogue 2>&1 | tail -60
R=1x4096x4096,7x1000x333,33x5000x3001,64x128x64,17x4096x4160,33x1000x200,64x512x104,48x8192x1088,64x96x136,5x300x65,64x4096x192,64x2048x2048
for n in 64 128; do
  for sp in auto force; do
    for b in build/sweep-nt/gemm-check-bf16 build/sweep-nn/gemm-check-fp16-nn build/sweep-epilogue/check; do
      [[ -x $b ]] && TAWA_NARROW=$n TAWA_SPLIT_TAIL=$sp timeout 100 "$b" --label "n$n-$sp-$(basename "$b")" \
        --shapes "$R" 2>&1 | grep -E "PASS|FAIL" >>"$out/forced.log"
    done
  done
done
echo "forced: $(grep -c PASS "$out/forced.log") PASS, $(grep -c FAIL "$out/forced.log") FAIL"
grep FAIL "$out/forced.log" | head
