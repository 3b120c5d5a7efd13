#!/usr/bin/env bash
# A batched tf32 NN GEMM (nn_batched.cu): B's matrices transposed into one
# packed copy, read through 3-D tensor maps. GEN/nn_batched.ws.cu is
# `tawa-rewrite nn_batched.cu -- -Iexamples/gemm-tf32`; checked with the GEMM
# driver (examples/gemm/main.cu, -DGEMM_ELEMENT=tf32 -DGEMM_LAYOUT=nn) on
# batched and ragged shapes, and under racecheck.
#   bash results/h100/tf32/batched/gpu.sh OUT GEN
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" build/tf32
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm-tf32 \
  -DGEMM_ELEMENT=tf32 -DGEMM_LAYOUT=nn "$gen/nn_batched.ws.cu" examples/gemm/main.cu \
  -o build/tf32/nn-batched -lcublas -lcuda >"$out/build.log" 2>&1 || echo "BUILD FAIL"
(cd "$gen" && sha256sum nn_batched.ws.cu) >"$out/sha256.txt"
build/tf32/nn-batched --label tf32-nn-batched \
  --shapes 3x1000x1000x1000,4x777x1555x2333,2x4096x4096x4096,5x16x520x264 --time --pairs 10 \
  --json "$out/batched.json" | tee "$out/table.txt"
echo "check rc=${PIPESTATUS[0]}" | tee -a "$out/table.txt"
compute-sanitizer --tool racecheck --error-exitcode 1 build/tf32/nn-batched --label racecheck \
  --shapes 3x200x328x200 >"$out/racecheck.log" 2>&1 || echo "SANITIZER FAIL"
tail -n 2 "$out/racecheck.log" | tee -a "$out/table.txt"
