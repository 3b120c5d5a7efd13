#!/usr/bin/env bash
# The main job: set-up, then rewrite examples/gemm/gemm.cu into
# gen/gemm.ws.cu and print it. Where nvidia-smi finds a GPU, also build the
# rewritten and the reference kernel, check both against cuBLAS and time the
# rewritten one (scripts/gpu-check.sh; results in results/ or $OUT).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
bash scripts/setup.sh
mkdir -p gen
build/tool/tawa-rewrite/tawa-rewrite examples/gemm/gemm.cu -o gen/gemm.ws.cu -- -Iexamples/gemm
cat gen/gemm.ws.cu
echo "== wrote gen/gemm.ws.cu"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  bash scripts/gpu-check.sh gen/gemm.ws.cu "${OUT:-results/gemm}"
else
  echo "== no GPU found (nvidia-smi): skipping the build, check and timing on the GPU"
fi
