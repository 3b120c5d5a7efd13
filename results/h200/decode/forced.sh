#!/usr/bin/env bash
# The 32-column few-rows twin forced (TAWA_NARROW=32) on ragged launches of
# at most 64 rows, with the sweep's check builds that results/h200/few-rows/gpu.sh
# leaves in build/sweep-*; then compute-sanitizer on two of them.
#   bash results/h200/decode/forced.sh OUT
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: forced.sh OUT}
mkdir -p "$out"
ragged=${RAGGED:-1x4096x4096,7x1000x1000,33x5000x3001,64x128x64,50x2048x8192,17x4000x1000,64x64x4096,17x4096x4160,33x1000x200,64x512x104,48x8192x1088,64x96x136}
export TAWA_NARROW=32
for b in build/sweep-nt/gemm-check-bf16 build/sweep-nt/gemm-check-fp16 build/sweep-tn/gemm-check-bf16-tn \
  build/sweep-epilogue/check; do
  [[ -x $b ]] && "$b" --label "forced32-$(basename "$b")" --shapes "$ragged" 2>&1 | tee -a "$out/forced.log"
done
[[ -x build/sweep-fp8/check ]] &&
  build/sweep-fp8/check --label forced32-fp8 --shapes 16x1008x3008,64x4096x4096,48x2000x512 2>&1 | tee -a "$out/forced.log"
for tool in memcheck racecheck synccheck; do
  for s in 33x1000x3001 17x4096x4160; do
    timeout 300 compute-sanitizer --tool $tool --error-exitcode 3 build/sweep-nt/gemm-check-bf16 \
      --label san --shapes $s >"$out/sanitizer-$tool-$s.log" 2>&1
    echo "forced32 sanitizer $tool $s: exit $? $(grep -c 'ERROR SUMMARY: 0 errors' "$out/sanitizer-$tool-$s.log") clean summary"
  done
done | tee "$out/sanitizer.txt"
echo "forced32: $(grep -c PASS "$out/forced.log") PASS, $(grep -c FAIL "$out/forced.log") FAIL"
