#!/usr/bin/env bash
# Experiment: the epilogue kernels built with tile.h as committed (rcp.rn in
# divide_fast) and with __fdividef, timed in turn on the same shapes.
set -uo pipefail
out=${1:?OUT}
mkdir -p "$out" build/exp
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iexamples/gemm-epilogue)
nvcc "${flags[@]}" -Iinclude gen/sweep/epilogue.ws.cu examples/gemm-epilogue/main.cu \
  -o build/exp/rn -lcublas -lcublasLt -lcuda >"$out/build-rn.log" 2>&1 &
nvcc "${flags[@]}" -Igen/exp/include -Iinclude gen/sweep/epilogue.ws.cu examples/gemm-epilogue/main.cu \
  -o build/exp/fast -lcublas -lcublasLt -lcuda >"$out/build-fast.log" 2>&1 &
wait
shapes=8192x8192x64,8192x8192x256,4096x4096x4096,8192x8192x8192,4096x22016x4096,4096x64x4096
for v in rn fast rn fast; do
  build/exp/$v --label $v --time --shapes "$shapes" --json "$out/$v.json" 2>&1 | grep -E "gelu|silu" | tee -a "$out/$v.log"
done
