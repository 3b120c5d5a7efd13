#!/usr/bin/env bash
# The cluster twin along x in the fp8 GEMMs and the fused epilogues
# (examples/gemm-fp8, examples/gemm-epilogue) as the tool writes them:
#   GEN_DIR=gen/xc bash bench/sweep-rewrite.sh           (here)
#   bash results/h200/x-cluster/kinds.sh OUT gen/xc       (on the GPU machine)
# Each example's check with the twin forced (TAWA_X_CLUSTER=force, the
# 64-column kernel, no row parts) under compute-sanitizer, then timed with
# the twin forced on and off and with the launcher's choice.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: kinds.sh OUT GEN_DIR}
gen=${2:?}
mkdir -p "$out" build/kinds
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm-fp8 -Xptxas -v \
  "$gen/gemm_fp8.ws.cu" examples/gemm-fp8/main.cu -o build/kinds/fp8 -lcublas -lcublasLt -lcuda \
  >"$out/build-fp8.log" 2>&1 &
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm-epilogue -Xptxas -v \
  "$gen/epilogue.ws.cu" examples/gemm-epilogue/main.cu -o build/kinds/epilogue -lcublas -lcublasLt \
  -lcuda >"$out/build-epilogue.log" 2>&1 &
wait
for k in fp8 epilogue; do
  awk '/Compiling entry/ { ref = /_reference/ } !ref' "$out/build-$k.log" |
    grep -iE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill' && echo "$k: ptxas warning"
done
force=(env TAWA_X_CLUSTER=force TAWA_NARROW=64 TAWA_ROW_PARTS=off)
for k in fp8 epilogue; do
  for tool in memcheck racecheck; do
    "${force[@]}" timeout 300 compute-sanitizer --tool $tool build/kinds/$k --label $k-$tool \
      --shapes 640x128x512,304x208x144,256x144x128 >"$out/san-$k-$tool.log" 2>&1
    echo "$k $tool: $(grep -cE ' PASS' "$out/san-$k-$tool.log") PASS, $(grep -cE ' FAIL' \
      "$out/san-$k-$tool.log") FAIL, $(grep -E 'ERROR SUMMARY' "$out/san-$k-$tool.log" | tr '\n' ' ')"
  done
done | tee "$out/sanitizer.txt"
shapes=1008x1008x1008,4096x208x4096,4096x256x8192,8192x128x4096,1024x1024x4096
for k in fp8 epilogue; do
  for c in default off force; do
    e=()
    [[ $c != default ]] && e=(env TAWA_X_CLUSTER=$c)
    "${e[@]}" timeout 200 build/kinds/$k --label "$k-$c" --time --shapes $shapes \
      >"$out/$k-$c.log" 2>&1
  done
done
grep -h FAIL "$out"/*-default.log "$out"/*-off.log "$out"/*-force.log | head
for f in "$out"/*-default.log "$out"/*-off.log "$out"/*-force.log; do
  grep -E 'PASS|FAIL' "$f" | cut -c1-160
done | sort | tee "$out/table.txt"
