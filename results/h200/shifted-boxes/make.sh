#!/usr/bin/env bash
# Writes the inputs of gpu.sh into GEN (default gen/shifted-boxes): the NT and
# NN bf16 GEMM examples, the batched one and the fused-epilogue example, rewritten by the tool.
#   bash results/h200/shifted-boxes/make.sh [GEN]      (where the tool is built)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
gen=${1:-gen/shifted-boxes}
tool=build/tool/tawa-rewrite/tawa-rewrite
mkdir -p "$gen"
"$tool" examples/gemm/gemm.cu -o "$gen/nt.ws.cu" -- -Iexamples/gemm
"$tool" examples/gemm-layouts/nn.cu -o "$gen/nn.ws.cu" -- -Iexamples/gemm-layouts
"$tool" examples/gemm-batched/gemm.cu -o "$gen/batched.ws.cu" -- -Iexamples/gemm-batched
"$tool" examples/gemm-epilogue/epilogue.cu -o "$gen/epilogue.ws.cu" -- -Iexamples/gemm-epilogue
grep -c 'tawa::rt::box_row<' "$gen"/*.ws.cu
echo "wrote $gen"
