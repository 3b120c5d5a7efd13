#!/usr/bin/env bash
# Rewrites examples/gemm-fp8/gemm_fp8.cu (three fp8 GEMMs) into GEN_DIR
# (default gen/fp8). Runs where tawa-rewrite is built (no GPU needed); gpu.sh
# compiles and runs the output.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
tool=${TAWA_REWRITE:-build/tool/tawa-rewrite/tawa-rewrite}
gen=${GEN_DIR:-gen/fp8}
mkdir -p "$gen"
"$tool" examples/gemm-fp8/gemm_fp8.cu -o "$gen/gemm_fp8.ws.cu" -- -Iexamples/gemm-fp8
(cd "$gen" && sha256sum ./*.ws.cu)
