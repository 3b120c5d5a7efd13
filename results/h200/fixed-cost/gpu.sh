#!/usr/bin/env bash
# What one CTA of the wide kernel spends outside its K loop (README.md):
# builds examples/gemm's bf16 NT check from GEN/gemm.ws.cu as rewritten and in
# the variants of instrument.py, then
#   stamps.txt  the clock64() stamps of CTA 0 (three calls per shape);
#   launch.txt  Nsight Compute's duration and most active SM cycles of the
#               kernel as rewritten, returning at once ("ret") and after its
#               barriers ("sync"), beside cuBLAS's kernel in the same process.
# The wide kernel runs every launch (TAWA_NARROW=off), whole tiles
# (TAWA_SPLIT_TAIL=off).
#   bash results/h200/fixed-cost/gpu.sh OUT GEN      (on the GPU machine)
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN}
gen=${2:?}
shapes=${SHAPES:-256x256x64 1536x1536x64}
mkdir -p "$out" build/fixed-cost
b=build/fixed-cost
for v in stamps ret sync; do
  python3 "$here/instrument.py" $v "$gen/gemm.ws.cu" $b/$v.ws.cu || exit 1
done
cp "$gen/gemm.ws.cu" $b/full.ws.cu
for v in full stamps ret sync; do
  nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm \
    -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt $b/$v.ws.cu examples/gemm/main.cu -o $b/$v \
    -lcublas -lcublasLt -lcuda >"$out/build-$v.log" 2>&1 &
done
wait
export TAWA_NARROW=off TAWA_SPLIT_TAIL=off
for s in $shapes; do
  echo "== $s"
  $b/stamps --label p --shapes "$s" --time --pairs 3 --warmup 1 2>&1 | grep dbg | tail -6
done >"$out/stamps.txt"
for v in full ret sync; do
  for s in $shapes; do
    timeout 120 ncu --metrics gpu__time_duration.sum,sm__cycles_active.max \
      -k regex:'gemm_nt|nvjet' --launch-count 2 $b/$v --label p --shapes "$s" --time \
      --pairs 1 --warmup 0 2>&1 |
      grep -E "^  [a-zA-Z_]+.*\(|duration|cycles" |
      sed -E 's/\(tawa::Matrix.*//; s/ \([0-9]+, [0-9]+, [0-9]+\)x.*//' | paste - - - |
      awk -v v=$v -v s=$s '{printf "%-6s %-14s %-45s %8s us %8s cycles\n", v, s, $1, $4, $7}'
  done
done >"$out/launch.txt"
cat "$out/stamps.txt" "$out/launch.txt"
