#!/usr/bin/env bash
# The narrow kernels that walk across the launch's columns (128 x 144, 192,
# 208 tiles) with the walk trimmed to the column tiles that store anything
# (tawa::rt::across_x_units), and the fp8 check's element tolerance on long K.
#   GEN_DIR=gen/tr bash bench/sweep-rewrite.sh        (here)
#   bash results/h200/across-trim/gpu.sh OUT gen/tr   (on the GPU machine)
# 1. The NT example with each across kernel forced under compute-sanitizer
#    memcheck, on shapes whose last column tile is ragged.
# 2. Each kernel forced against the launcher's choice and cuBLAS
#    (results/h200/weak-shapes/gpu.sh), bf16 NT.
# 3. The fp8 GEMMs on the long-K shapes that failed the fixed 2e-2 tolerance.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN_DIR}
gen=${2:?}
mkdir -p "$out" build/tr
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm-fp8 \
  "$gen/gemm_fp8.ws.cu" examples/gemm-fp8/main.cu -o build/tr/fp8 -lcublas -lcublasLt -lcuda \
  >"$out/build-fp8.log" 2>&1 &
SHAPES=${SHAPES:-4096x136x4096,4096x144x4096,4096x200x4096,4096x208x4096,4096x232x4096,4096x320x4096,8192x200x4096,2000x200x4096,1000x200x8192} \
  CHOICES=${CHOICES:-"default NARROW=144 NARROW=192 NARROW=208 NARROW=208+SPLIT_TAIL=off"} \
  PAIRS=${PAIRS:-10} bash results/h200/weak-shapes/gpu.sh "$out/time" "$gen" nt >"$out/time.log" 2>&1
for n in 144 192 208; do
  TAWA_NARROW=$n timeout 300 compute-sanitizer --tool memcheck build/weak/nt --label san-$n \
    --shapes 300x200x136,129x136x520,640x400x72,256x8x64 >"$out/san-$n.log" 2>&1
  echo "N$n memcheck: $(grep -c ' PASS' "$out/san-$n.log") PASS, $(grep -c ' FAIL' "$out/san-$n.log") FAIL," \
    "$(grep 'ERROR SUMMARY' "$out/san-$n.log")"
done | tee "$out/sanitizer.txt"
wait
timeout 400 build/tr/fp8 --label fp8 --time --shapes 4096x4096x4096,16384x16384x16384,8192x8192x28672 \
  --json "$out/fp8.json" >"$out/fp8.log" 2>&1
cut -c1-200 "$out/fp8.log"
cat "$out/time/table.txt"
