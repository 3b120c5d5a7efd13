#!/usr/bin/env bash
# Rewrites examples/gemm-epilogue/epilogue.cu (four GEMMs with fused
# epilogues) into GEN_DIR (default gen/epilogue). Runs where tawa-rewrite is
# built (no GPU needed); gpu.sh compiles and runs the output.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
tool=${TAWA_REWRITE:-build/tool/tawa-rewrite/tawa-rewrite}
gen=${GEN_DIR:-gen/epilogue}
mkdir -p "$gen"
"$tool" examples/gemm-epilogue/epilogue.cu -o "$gen/epilogue.ws.cu" -- -Iexamples/gemm-epilogue
(cd "$gen" && sha256sum ./*.ws.cu)
