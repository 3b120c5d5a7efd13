#!/usr/bin/env bash
# Writes the inputs of short.sh into GEN_DIR (default gen/skinny): kernels of
# 64-row tiles made from examples/gemm/gemm.cu (one consumer warpgroup,
# narrow(off), 64 x 64 in 12 stages, 64 x 128 in 8, 64 x 256 in 4), rewritten,
# beside the example's own rewrite (gemm.ws.cu) and the same with the
# ping-pong twins never run (gemm-nopp.ws.cu).
#   bash results/h200/skinny-choice/make-short.sh [GEN_DIR]
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
tool=${TAWA_REWRITE:-build/tool/tawa-rewrite/tawa-rewrite}
gen=${1:-gen/skinny}
mkdir -p "$gen"
"$tool" examples/gemm/gemm.cu -o "$gen/gemm.ws.cu" -- -Iexamples/gemm
sed 's/C.rows > 64 ?/false ?/' "$gen/gemm.ws.cu" >"$gen/gemm-nopp.ws.cu"
for v in "64 64 12" "64 128 8" "64 256 4"; do
  read -r bm bn stages <<<"$v"
  src=$gen/gemm-${bm}x${bn}.cu
  sed -e "s/blockIdx.y \* 128, n0 = blockIdx.x \* 256/blockIdx.y * $bm, n0 = blockIdx.x * $bn/" \
    -e "s/Accumulator<float, 128, 256>/Accumulator<float, $bm, $bn>/" \
    -e "s/stages(4) consumers(2)/stages($stages) consumers(1) narrow(off)/" \
    -e "s/load<128, 64>(A/load<$bm, 64>(A/" -e "s/load<256, 64>(B/load<$bn, 64>(B/" \
    -e "s/ceil_div(C.cols, 256), tawa::ceil_div(C.rows, 128)/ceil_div(C.cols, $bn), tawa::ceil_div(C.rows, $bm)/" \
    examples/gemm/gemm.cu >"$src"
  "$tool" "$src" -o "$gen/short-${bm}x${bn}.ws.cu" -- -Iexamples/gemm
done
