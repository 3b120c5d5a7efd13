#!/usr/bin/env bash
# Nsight Compute sections of the 128 x 208 kernel split by K (TAWA_NARROW=208)
# and of cuBLAS on launches of 200 columns (clocks left as they are).
#   bash results/h200/across-trim/ncu.sh OUT gen/tr   (on the GPU machine)
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: ncu.sh OUT GEN_DIR}
gen=${2:?}
mkdir -p "$out" build/tr
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm -DGEMM_ELEMENT=bf16 \
  -DGEMM_LAYOUT=nt "$gen/gemm.ws.cu" examples/gemm/main.cu -o build/tr/nt -lcublas -lcublasLt -lcuda \
  >"$out/build.log" 2>&1 || { tail "$out/build.log"; exit 1; }
sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section LaunchStats --section WarpStateStats)
for s in ${SHAPES:-4096x200x4096 8192x200x4096}; do
  for k in ${KERNELS:-narrow208 nvjet}; do
    TAWA_NARROW=208 timeout 150 ncu --clock-control none -k "regex:$k" --launch-skip 2 --launch-count 1 \
      "${sections[@]}" build/tr/nt --label nt --shapes $s --time --pairs 3 --warmup 1 >"$out/$s-$k.txt" 2>&1
    echo "== $s $k"
    grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Memory Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Compute \(SM\) Throughput|Grid Size|Warp Cycles Per Issued" "$out/$s-$k.txt" | head -20
  done
done
