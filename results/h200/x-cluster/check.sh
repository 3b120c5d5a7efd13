#!/usr/bin/env bash
# The 64-column ping-pong kernel's cluster twin along x as the tool writes it
# (NarrowTiles::PingPongClusters), bf16 NT and TT:
#   bash bench/sweep-rewrite.sh            (here: GEN_DIR=gen/xc)
#   bash results/h200/x-cluster/check.sh OUT gen/xc     (on the GPU machine)
# compute-sanitizer on the twin forced (TAWA_X_CLUSTER=force), an odd number
# of column tiles included, then the launcher's choice against the twin
# forced on and off, each in its own process (results/h200/weak-shapes/gpu.sh).
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: check.sh OUT GEN_DIR}
gen=${2:?}
mkdir -p "$out" build/weak
for l in nt tt; do
  src=gemm-$l.ws.cu ex=gemm-layouts
  [[ $l == nt ]] && src=gemm.ws.cu ex=gemm
  nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/$ex \
    -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=$l "$gen/$src" examples/gemm/main.cu \
    -o build/weak/san-$l -lcublas -lcublasLt -lcuda >"$out/build-san-$l.log" 2>&1 &
done
wait
for l in nt tt; do
  for tool in memcheck racecheck synccheck; do
    TAWA_NARROW=64 TAWA_ROW_PARTS=off TAWA_X_CLUSTER=force timeout 300 compute-sanitizer \
      --tool $tool build/weak/san-$l --shapes 640x128x512,300x200x136,300x136x200,129x520x72 \
      >"$out/san-$l-$tool.log" 2>&1
    echo "$l $tool: $(grep -E 'ERROR SUMMARY|PASS|FAIL' "$out/san-$l-$tool.log" | tr '\n' ' ')"
  done
done | tee "$out/sanitizer.txt"
SHAPES=${SHAPES:-1000x1000x1000,1024x1024x1024,1160x1160x1160,1000x1000x4000,1024x1024x4096,2048x2048x512,4096x128x4096,4096x200x4096,4096x256x4096,4096x256x1024,4096x256x2048,4096x256x8192,8192x128x4096,2048x256x4096,3072x256x4096,2048x512x2048,4096x136x4096} \
CHOICES=${CHOICES:-"default X_CLUSTER=off X_CLUSTER=force NARROW=64+ROW_PARTS=off+X_CLUSTER=off NARROW=64+ROW_PARTS=off+X_CLUSTER=force"} \
  bash results/h200/weak-shapes/gpu.sh "$out" "$gen" nt tt
