#!/usr/bin/env bash
# Nsight Compute's view of small launches (clocks left as they are): the
# rewritten bf16 NT GEMM of GEN_DIR and cuBLAS, durations, cycles and where
# the warps wait.
#   OUT=dir bash results/h200/skinny-choice/ncu-small.sh GEN_DIR
set -u
gen=${1:-gen/skinny-new}
mkdir -p build/nc "$OUT/ncu-small"
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm -DGEMM_ELEMENT=bf16 \
  -DGEMM_LAYOUT=nt "$gen/gemm.ws.cu" examples/gemm/main.cu -o build/nc/nt-small -lcublas \
  >"$OUT/ncu-small/build.log" 2>&1 || { tail "$OUT/ncu-small/build.log"; exit 1; }
for s in 64x2048x2048 16x4096x1024 64x64x64; do
  timeout 150 ncu --clock-control none -k 'regex:gemm|nvjet|xmma|sm90' --launch-skip 4 --launch-count 2 \
    --section SpeedOfLight --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis \
    build/nc/nt-small --label nt --shapes $s --time --pairs 3 --warmup 1 >"$OUT/ncu-small/$s.txt" 2>&1
  echo "== $s"
  grep -E "^  [a-zA-Z_].*\(|Duration|Elapsed Cycles|SM Active Cycles|DRAM Throughput|Grid Size|Dynamic Shared" \
    "$OUT/ncu-small/$s.txt" | sed 's/(tawa::.*)\s*(/(/' | head -24
done
