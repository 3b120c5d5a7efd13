#!/usr/bin/env bash
# Builds bench/launch/overhead.cu against a rewrite of examples/gemm/gemm.cu
# (GEN/gemm.ws.cu, as bench/sweep-rewrite.sh writes it) and runs it: the host
# cost of the launcher against cublasGemmEx on small shapes, checked, and the
# runtime calls a launcher makes timed alone. Writes OUT/overhead.json.
#   bash bench/launch/run.sh OUT GEN [SHAPES]
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
out=${1:?usage: run.sh OUT GEN [SHAPES]}
gen=${2:?}
mkdir -p "$out" build/launch
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm \
  "$gen/gemm.ws.cu" bench/launch/overhead.cu -o build/launch/overhead -lcublas
args=(--json "$out/overhead.json")
[[ -n ${3:-} ]] && args+=(--shapes "$3")
build/launch/overhead "${args[@]}" | tee "$out/overhead.txt"
