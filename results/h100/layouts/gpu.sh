#!/usr/bin/env bash
# The operand layouts on a Hopper GPU, in one call: usage
#   bash results/h100/layouts/gpu.sh OUT [GEN_DIR]
# with GEN_DIR (default gen/layouts) written by rewrite.sh.
#   1. the kernels as written (examples/gemm-layouts/*.cu, the reference of
#      tile.h) checked on small and ragged shapes, bf16 and fp16;
#   2. compute-sanitizer racecheck and synccheck of each rewritten layout
#      (bf16) on one small shape;
#   3. bench/gemm-bench.sh over every layout, bf16 and fp16: check, then
#      time against cuBLAS in the same process (table printed last).
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT [GEN_DIR]}
gen=${2:-gen/layouts}
mkdir -p "$out" build/layouts
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm-layouts)
rc=0
# 1. The reference, and the rewritten kernels for the sanitizer, built in
# parallel.
for l in nn tn tt; do
  for e in bf16 half; do
    nvcc "${flags[@]}" -DGEMM_ELEMENT=$e -DGEMM_LAYOUT=$l examples/gemm-layouts/$l.cu \
      examples/gemm/main.cu -o build/layouts/ref-$l-$e -lcublas >"$out/build-ref-$l-$e.log" 2>&1 &
  done
  nvcc "${flags[@]}" -DGEMM_LAYOUT=$l "$gen/gemm-$l.ws.cu" examples/gemm/main.cu \
    -o build/layouts/ws-$l -lcublas >"$out/build-ws-$l.log" 2>&1 &
done
wait
for l in nn tn tt; do
  for e in bf16 half; do
    echo "== reference $l $e"
    timeout 120 build/layouts/ref-$l-$e --label "ref-$l-$e" --shapes 129x257x73,1000x1016x520,256x512x1024 \
      --json "$out/ref-$l-$e.json" 2>&1 | tee "$out/ref-$l-$e.log" | tail -4 || rc=1
  done
  for tool in racecheck synccheck; do
    echo "== $tool $l (rewritten, bf16)"
    timeout 240 compute-sanitizer --tool $tool --error-exitcode 3 build/layouts/ws-$l \
      --label "ws-$l" --shapes 384x768x320 2>&1 | tail -3 | tee "$out/$tool-$l.log" || rc=1
  done
done
# 3. The benchmark, every layout (SKIP_BENCH=1 leaves it out).
[[ ${SKIP_BENCH:-0} == 1 ]] || VARIANTS=${VARIANTS:-"bf16 bf16-nn bf16-tn bf16-tt fp16 fp16-nn fp16-tn fp16-tt"} \
  DENSE_SHAPES=${DENSE_SHAPES:-4096x4096x4096,8192x8192x4096,2048x2048x2048,1000x1016x520,3000x5000x7000,512x512x512,128x4096x4096,4096x11008x4096} \
  RUN_TIMEOUT=120 bash bench/gemm-bench.sh "$gen" "$out/bench" || rc=1
# One archive: the device returns a limited number of files.
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out"
exit $rc
