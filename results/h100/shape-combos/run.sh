#!/usr/bin/env bash
# shape(auto) with cluster(2), schedule(pingpong) and persistent(off), on
# 64 x 64 tiles of the example: written to gen/combo/ and rewritten on a
# machine with clang, then checked, timed and sanitized on the GPU machine.
#
# usage: bash results/h100/shape-combos/run.sh gen    # rewrite (with clang)
#        bash results/h100/shape-combos/run.sh gpu    # check (on the GPU)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
variants=(auto-cluster auto-pingpong auto-nonpersistent)
if [[ ${1:-} == gen ]]; then
  mkdir -p gen/combo
  src=examples/gemm/gemm.cu
  pragma='#pragma tawa tile stages(4) consumers(2)'
  small='s/256/64/g; s/128/64/g'
  sed "$small; s/$pragma/#pragma tawa tile shape(auto) cluster(2)/" $src >gen/combo/auto-cluster.cu
  sed "$small; s/$pragma/#pragma tawa tile shape(auto) schedule(pingpong)/" $src >gen/combo/auto-pingpong.cu
  sed "$small; s/$pragma/#pragma tawa tile shape(auto) persistent(off)/" $src >gen/combo/auto-nonpersistent.cu
  for v in "${variants[@]}"; do
    build/tool/tawa-rewrite/tawa-rewrite gen/combo/$v.cu -o gen/combo/$v.ws.cu -- -Iexamples/gemm
  done
  exit 0
fi
out=${OUT:-/tmp}/combo
mkdir -p build/combo "$out"
for v in "${variants[@]}"; do
  (nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm -Xptxas -v \
    gen/combo/$v.ws.cu examples/gemm/main.cu -o build/combo/$v -lcublas >"$out/$v-build.log" 2>&1 ||
    echo "$v build failed") &
done
wait
for v in "${variants[@]}"; do
  grep -E "spill" "$out/$v-build.log" | sort | uniq -c | head -3
  build/combo/$v --label $v --shapes 4096x4096x4096,1000x1016x512,8192x8191x1024,300x200x333,2304x2056x192 \
    --time --pairs 10 2>&1 | grep -E "PASS|FAIL|error"
  compute-sanitizer --tool racecheck build/combo/$v --label $v \
    --shapes 256x768x320,300x201x128,2304x2056x192 2>&1 | grep -E "SUMMARY|FAIL"
  compute-sanitizer --tool synccheck build/combo/$v --label $v \
    --shapes 256x768x320,300x201x128 2>&1 | grep -E "SUMMARY|FAIL"
done 2>&1 | tee "$out/stdout.log"
