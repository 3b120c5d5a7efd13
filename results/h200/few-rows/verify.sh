#!/usr/bin/env bash
# The few-rows twins of the tf32 GEMMs (examples/gemm-tf32) and of the
# migrated hand-written kernels (examples/legacy) checked on launches of at
# most 64 rows: the tf32 ones against cuBLAS's tf32 GEMM and the fp64 spot
# check (then timed), the legacy ones against the kernels as written; then
# compute-sanitizer racecheck and synccheck on a ragged launch of each.
#   bash results/h200/few-rows/verify.sh OUT TF32_GEN LEGACY_GEN
# TF32_GEN: gemm.ws.cu and nn.ws.cu from `tawa-rewrite examples/gemm-tf32/...`;
# LEGACY_GEN: what results/h100/legacy/rewrite.sh writes. Packed into
# OUT.tar.gz.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: verify.sh OUT TF32_GEN LEGACY_GEN}
tf32=${2:?} legacy=${3:?}
mkdir -p "$out" build/few-verify
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude)
for l in nt nn; do
  src=$tf32/gemm.ws.cu
  [[ $l == nn ]] && src=$tf32/nn.ws.cu
  nvcc "${flags[@]}" -Iexamples/gemm-tf32 -DGEMM_ELEMENT=tf32 -DGEMM_LAYOUT=$l -Xptxas -v "$src" \
    examples/gemm/main.cu -o build/few-verify/tf32-$l -lcublas -lcuda >"$out/build-tf32-$l.log" 2>&1 &
done
# The kernels as written, renamed, beside the migrated and rewritten ones
# (as results/h100/legacy/gpu.sh builds them).
rename=$(sed -n '/^rename=(/,/)$/p' results/h100/legacy/gpu.sh | tr -d '()\\' | sed 's/^rename=//')
nvcc "${flags[@]}" -Iexamples/legacy -diag-suppress 20199 $rename -c examples/legacy/legacy.cu \
  -o build/few-verify/orig.o >"$out/build-orig.log" 2>&1
nvcc "${flags[@]}" -Iexamples/legacy -Xptxas -v "$legacy/legacy.ws.cu" examples/legacy/main.cu \
  build/few-verify/orig.o -o build/few-verify/legacy -lcublas -lcuda >"$out/build-legacy.log" 2>&1
wait
grep -E " error|BUILD" "$out"/build-*.log | head
awk '/Compiling entry/ { ref = /_reference/ } !ref' "$out"/build-*.log |
  grep -iE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill' && echo "PTXAS WARNINGS"
few=1x512x512,16x520x264,33x1000x1000,50x2048x2052,64x256x4096,64x4096x4096
for l in nt nn; do
  timeout 200 build/few-verify/tf32-$l --label tf32-$l --shapes "$few" 2>&1 | tee -a "$out/check.log"
  timeout 200 build/few-verify/tf32-$l --label tf32-$l --shapes 16x4096x4096,64x4096x11008 --time \
    --json "$out/tf32-$l.json" 2>&1 | tee -a "$out/time.log"
done
timeout 400 build/few-verify/legacy --label legacy --shapes 16x4096x1024,33x1000x520,64x257x80,1x512x512,64x2048x2048 \
  --json "$out/legacy.json" 2>&1 | tee "$out/legacy.log"
for tool in racecheck synccheck; do
  timeout 300 compute-sanitizer --tool $tool --error-exitcode 3 build/few-verify/tf32-nt --label san \
    --shapes 33x1000x1000 >"$out/sanitizer-$tool-tf32.log" 2>&1
  echo "sanitizer $tool tf32 33x1000x1000: exit $?"
  timeout 300 compute-sanitizer --tool $tool --error-exitcode 3 build/few-verify/legacy --label san \
    --shapes 33x1000x520 >"$out/sanitizer-$tool-legacy.log" 2>&1
  echo "sanitizer $tool legacy 33x1000x520: exit $?"
done | tee "$out/sanitizer.txt"
echo "checks: $(grep -c PASS "$out/check.log") PASS, $(grep -c FAIL "$out/check.log") FAIL (tf32);" \
  "$(grep -c PASS "$out/legacy.log") PASS, $(grep -c FAIL "$out/legacy.log") FAIL (legacy)"
tar -C "$(dirname "$out")" -czf "$out.tar.gz" "$(basename "$out")" && rm -rf "$out"
