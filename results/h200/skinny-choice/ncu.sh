#!/usr/bin/env bash
# Nsight Compute sections of the rewritten bf16 NT GEMM and cuBLAS on skinny shapes (clocks left as they are).
#   OUT=dir bash results/h200/skinny-choice/ncu.sh
set -u
mkdir -p build/nc $OUT/ncu
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude)
nvcc "${flags[@]}" -Iexamples/gemm -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt gen/skinny/gemm.ws.cu examples/gemm/main.cu -o build/nc/nt -lcublas > $OUT/ncu/build.log 2>&1 || { tail $OUT/ncu/build.log; exit 1; }
for s in 16x4096x4096 64x4096x4096 4096x128x4096 192x4096x4096; do
  timeout 150 ncu --clock-control none -k 'regex:gemm|nvjet|xmma|sm90' --launch-skip 4 --launch-count 4 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats --section Occupancy \
    build/nc/nt --label nt --shapes $s --time --pairs 3 --warmup 1 > $OUT/ncu/$s.txt 2>&1
  echo "== $s"; grep -E "^  [a-z_].*\(|Duration|DRAM Throughput|Memory Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Grid Size|Compute \(SM\)" $OUT/ncu/$s.txt | head -60
done
