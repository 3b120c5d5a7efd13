#!/usr/bin/env bash
# Nsight Compute's view of few-column launches (M large, N <= 128): our
# kernels under the launcher's choice and under TAWA_ROW_PARTS=force, and
# cuBLAS's, per shape: duration, grid, DRAM and L2 throughput, L2 hit rate.
#   bash results/h200/few-columns/ncu.sh OUT GEN     (on the GPU machine)
# GEN: what bench/sweep-rewrite.sh wrote (gemm.ws.cu, the bf16 NT example).
set -u
out=${1:?usage: ncu.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" build/few-columns
b=build/few-columns
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm \
  -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt "$gen/gemm.ws.cu" examples/gemm/main.cu -o $b/nt \
  -lcublas -lcublasLt -lcuda > "$out/build.log" 2>&1 || { tail "$out/build.log"; exit 1; }
for s in ${SHAPES:-4096x64x4096 4096x128x4096}; do
  for c in default ROW_PARTS=force; do
    env=()
    [[ $c != default ]] && env=("TAWA_$c")
    env "${env[@]}" timeout 240 ncu --section SpeedOfLight --section LaunchStats \
      --section MemoryWorkloadAnalysis -k regex:'gemm_nt|nvjet|sm90|split|reduce' \
      --launch-count ${COUNT:-8} $b/nt --label p --shapes $s --time --pairs 1 --warmup 0 \
      > "$out/$s.${c//=/-}.txt" 2>&1
  done
done
for f in "$out"/*.txt; do
  echo "== $(basename "$f")"
  grep -E "^  [a-zA-Z_]+.*\(|^    Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|L2 Hit Rate|Grid Size|Memory Throughput" "$f" | cut -c1-110
done
