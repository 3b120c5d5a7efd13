#!/usr/bin/env bash
# A kernel template in the tile vocabulary (gemm.cu: element type and CTA tile
# as template parameters, two instantiations launched) rewritten into one
# kernel per instantiation, built with examples/gemm/main.cu and checked
# against cuBLAS on shapes that reach both copies (at most 1024 columns: the
# 128 x 128 copy) and their narrow and few-rows kernels, the split tail forced
# and not; then timed on a few shapes.
#   build/tool/tawa-rewrite/tawa-rewrite results/h200/tile-template/gemm.cu \
#     -o GEN/gemm.ws.cu -- -Iexamples/gemm     (where clang is)
#   bash results/h200/tile-template/gpu.sh OUT GEN   (see README.md)
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" build/tile-template
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm -Xptxas -v \
  "$gen/gemm.ws.cu" examples/gemm/main.cu -o build/tile-template/check -lcublas >"$out/build.log" 2>&1 ||
  { echo "tile-template: build failed"; tail -20 "$out/build.log"; exit 1; }
awk '/Compiling entry/ { ref = /_reference/ } !ref' "$out/build.log" |
  grep -iE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill' && echo "tile-template: ptxas warning or spill"
ragged=1x1000x333,16x1024x4096,33x5000x3001,64x128x64,100x1000x1000,129x1024x520,1000x1000x1000,1024x1536x2048,2000x3000x777,4096x4096x4096
for sp in auto force; do
  TAWA_SPLIT_TAIL=$sp build/tile-template/check --label "template-split-$sp" --shapes "$ragged" 2>&1 |
    tee -a "$out/checks.log"
done
build/tile-template/check --label template --time --shapes 16x1024x4096,64x4096x4096,1024x1024x4096,4096x4096x4096 \
  --json "$out/timed.json" 2>&1 | tee "$out/timed.log"
echo "tile-template: $(grep -c PASS "$out/checks.log") PASS, $(grep -c FAIL "$out/checks.log") FAIL"
