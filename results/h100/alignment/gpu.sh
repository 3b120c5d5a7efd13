#!/usr/bin/env bash
# Whether the row pitch of the operands (in bytes) sets the speed of the
# rewritten bf16 GEMM (A M x K, B N x K, C M x N, all row-major: both
# operands' pitch is 2 K bytes, C's 2 N): the same M = N = 3000 and 5000
# with K (and N) moved across pitches that are multiples of 16, 32, 64 and
# 128 bytes, checked and timed against cuBLAS in one process.
#   bash results/h100/alignment/gpu.sh OUT [GEN_DIR]
# GEN_DIR (default gen/sweep) holds gemm.ws.cu (bench/sweep-rewrite.sh).
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT [GEN_DIR]}
gen=${2:-gen/sweep}
mkdir -p "$out" build/alignment
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm \
  -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt "$gen/gemm.ws.cu" examples/gemm/main.cu \
  -o build/alignment/gemm-check -lcublas >"$out/build.log" 2>&1 || { tail "$out/build.log"; exit 1; }
# K pitch: 3000 -> 6000 B (16 mod 32), 3008 -> 6016 (128 B multiple),
# 3016 -> 6032 (16 mod 32), 3024 -> 6048 (32 mod 64), 3040 -> 6080 (64 mod
# 128); 3008 x 3008 x 3000 moves C's pitch only.
shapes=${SHAPES:-3000x3000x3000,3000x3000x3008,3000x3000x3016,3000x3000x3024,3000x3000x3040,3008x3008x3000,3072x3072x3072,5000x5000x5000,5000x5000x5056,5000x5000x5024,5056x5056x5056,2000x2000x2000,2000x2000x2008,10000x10000x10000,10000x10000x10008}
build/alignment/gemm-check --label align --shapes "$shapes" --time --pairs 20 \
  --warmup 3 --json "$out/align.json" 2>&1 | tee "$out/align.log"
