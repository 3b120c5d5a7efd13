#!/usr/bin/env bash
# Implicit-GEMM convolutions (examples/conv/conv.cu, tawa::Im2col loaded by
# TMA's im2col mode) on the GPU: the rewritten file GEN/conv.ws.cu and the
# file as written, each built as a shared library, checked by
# bench/conv/bench.py against PyTorch's float32 conv2d and an fp64 spot check,
# and timed against PyTorch's bf16 channels-last conv2d (cuDNN) in the same
# process; racecheck and synccheck on a ragged shape. The table is printed
# last; everything lands in OUT.
#   bash results/h200/conv/gpu.sh OUT GEN
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" build/conv
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/conv
  -Xcompiler -fPIC -shared -Xptxas -v)
nvcc "${flags[@]}" "$gen/conv.ws.cu" -o build/conv/conv.ws.so >"$out/build-ws.log" 2>&1 || echo "BUILD FAIL ws"
nvcc "${flags[@]}" examples/conv/conv.cu -o build/conv/conv.ref.so >"$out/build-ref.log" 2>&1 || echo "BUILD FAIL ref"
(cd "$gen" && sha256sum conv.ws.cu) >"$out/sha256.txt"
awk '/Compiling entry/ { ref = /_reference/ } !ref' "$out/build-ws.log" |
  grep -iE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill' && echo "PTXAS WARNINGS"
for tool in racecheck synccheck; do
  timeout 300 compute-sanitizer --tool $tool --error-exitcode 1 --kernel-regex kns=conv2d_fprop \
    python3 bench/conv/bench.py \
    --lib build/conv/conv.ws.so --out "$out/$tool" --shapes ragged-s2 --check-only \
    >"$out/$tool.log" 2>&1 || echo "SANITIZER FAIL $tool"
  tail -n 2 "$out/$tool.log"
done
timeout -k 10 400 python3 bench/conv/bench.py --lib build/conv/conv.ws.so --ref build/conv/conv.ref.so \
  --out "$out" ${SHAPES:+--shapes "$SHAPES"} 2>&1 | tee "$out/bench.log" | tail -n 25
