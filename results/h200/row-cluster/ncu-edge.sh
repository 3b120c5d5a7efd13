#!/usr/bin/env bash
# The 64-column few-rows twin over row parts (no cluster) at 72, 80 and 128
# rows (N = K = 4096, bf16 NT): the same kernel and tile count, timed with
# Nsight Compute's full set, to find what the rows past A's end cost.
#   bash results/h200/row-cluster/ncu-edge.sh OUT GEN_DIR
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: ncu-edge.sh OUT GEN_DIR}
gen=${2:?}
mkdir -p "$out" build/weak
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm \
  -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt "$gen/gemm.ws.cu" examples/gemm/main.cu \
  -o build/weak/nt-ncu -lcublas -lcublasLt -lcuda >"$out/build.log" 2>&1 || exit 1
for s in ${SHAPES:-72x4096x4096 80x4096x4096 128x4096x4096}; do
  env TAWA_ROW_PARTS=force TAWA_NARROW=64 TAWA_ROW_CLUSTER=off \
    ncu --set full -k regex:narrow64_rows64 --launch-count 1 -o "$out/$s" \
    build/weak/nt-ncu --shapes "$s" >"$out/$s.log" 2>&1
  ncu --import "$out/$s.ncu-rep" --page details >"$out/$s.txt" 2>&1
  rm -f "$out/$s.ncu-rep"
done
# Then the time of every kernel of the check, with the clocks at base and
# left to the GPU (ncu/clocks.txt).
for s in ${SHAPES:-72x4096x4096 128x4096x4096}; do
  for cc in base none; do
    echo "== $s clock $cc"
    env TAWA_ROW_PARTS=force TAWA_NARROW=64 TAWA_ROW_CLUSTER=off \
      ncu --clock-control $cc --metrics gpu__time_duration.sum,launch__grid_size \
      build/weak/nt-ncu --shapes "$s" 2>&1 | grep -E "^  [a-zA-Z_]|gpu__time_duration|grid_size" |
      cut -c1-110
  done
done >"$out/clocks.txt"
