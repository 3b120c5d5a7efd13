#!/usr/bin/env bash
# Variants of examples/gemm-fp8/gemm_fp8.cu, each changing one thing in all
# three kernels, written to GEN_DIR (default gen/fp8v) and rewritten there:
#   cluster:  cluster(2) (B multicast to the CTAs of vertically adjacent tiles)
#   pingpong: 128 x 128 tiles, schedule(pingpong) (one consumer's epilogue
#             under the other's main loop)
#   coop128:  128 x 128 tiles, cooperative (the default schedule)
# gpu-variants.sh times them beside the default (gen/fp8).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
tool=${TAWA_REWRITE:-build/tool/tawa-rewrite/tawa-rewrite}
gen=${GEN_DIR:-gen/fp8v}
mkdir -p "$gen"
src=examples/gemm-fp8/gemm_fp8.cu
sed 's/^#pragma tawa tile$/#pragma tawa tile cluster(2)/' $src >"$gen/cluster.cu"
sed 's/256/128/g; s/^#pragma tawa tile$/#pragma tawa tile schedule(pingpong)/' $src >"$gen/pingpong.cu"
sed 's/256/128/g' $src >"$gen/coop128.cu"
for v in cluster pingpong coop128; do
  "$tool" "$gen/$v.cu" -o "$gen/$v.ws.cu" -- -Iexamples/gemm-fp8
done
(cd "$gen" && sha256sum ./*.ws.cu)
