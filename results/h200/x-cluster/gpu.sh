#!/usr/bin/env bash
# The few-rows cluster twin and the 64-column ping-pong kernel in clusters
# along x (patch.py, patch_pingpong.py) against the same kernels without, bf16 NT, on launches of many rows and few columns:
#   python3 results/h200/x-cluster/patch.py gen/xc/gemm.ws.cu /tmp/g1.cu gemm_nt 2 4
#   python3 results/h200/x-cluster/patch_pingpong.py /tmp/g1.cu gen/xc-x/gemm.ws.cu gemm_nt 2 4
#   bash results/h200/x-cluster/gpu.sh OUT gen/xc-x      (on the GPU machine)
# Runs compute-sanitizer on the cluster along x first, then the timings of
# results/h200/weak-shapes/gpu.sh; the table is last.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN_DIR}
gen=${2:?}
mkdir -p "$out" build/weak
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm \
  -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt "$gen/gemm.ws.cu" examples/gemm/main.cu \
  -o build/weak/san -lcublas -lcublasLt -lcuda >"$out/build-san.log" 2>&1
for c in 2 4; do
  shapes=640x128x512,300x200x136
  [[ $c == 4 ]] && shapes=300x200x136,1000x256x512
  for tool in memcheck racecheck synccheck; do
    TAWA_ROW_PARTS=force TAWA_ROW_CLUSTER=force TAWA_XC=$c timeout 300 compute-sanitizer \
      --tool $tool build/weak/san --shapes $shapes >"$out/san-$c-$tool.log" 2>&1
    echo "XC=$c $tool: $(grep -E 'ERROR SUMMARY|PASS|FAIL' "$out/san-$c-$tool.log" | tr '\n' ' ')"
    TAWA_NARROW=64 TAWA_ROW_PARTS=off TAWA_XP=$c timeout 300 compute-sanitizer \
      --tool $tool build/weak/san --shapes $shapes >"$out/san-p$c-$tool.log" 2>&1
    echo "XP=$c $tool: $(grep -E 'ERROR SUMMARY|PASS|FAIL' "$out/san-p$c-$tool.log" | tr '\n' ' ')"
  done
done | tee "$out/sanitizer.txt"
SHAPES=${SHAPES:-4096x128x4096,4096x96x4096,3000x128x4096,8192x128x4096,4096x200x4096,4000x200x4096,8192x200x4096,2000x200x4096,4096x208x4096,4096x240x4096,4096x256x4096,4096x256x8192,2048x256x8192,1024x256x4096,1000x1000x1000,1024x1024x1024,1000x1000x4000} \
CHOICES=${CHOICES:-"default NARROW=64+ROW_PARTS=off NARROW=64+ROW_PARTS=off+XP=2 NARROW=64+ROW_PARTS=off+XP=4 ROW_PARTS=force+ROW_CLUSTER=force+XC=2 ROW_PARTS=force+ROW_CLUSTER=force+XC=4"} \
  bash results/h200/weak-shapes/gpu.sh "$out" "$gen" nt
