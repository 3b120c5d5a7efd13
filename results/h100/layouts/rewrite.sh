#!/usr/bin/env bash
# Rewrites the GEMM examples of every operand layout into GEN_DIR (default
# gen/layouts): the NT examples (gemm, gemm-f16) and examples/gemm-layouts'
# nn, tn, tt, each as bf16 and as fp16 (-DGEMM_ELEMENT=half). Runs where
# tawa-rewrite is built (no GPU needed); gpu.sh compiles and runs the output.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
tool=${TAWA_REWRITE:-build/tool/tawa-rewrite/tawa-rewrite}
gen=${GEN_DIR:-gen/layouts}
mkdir -p "$gen"
"$tool" examples/gemm/gemm.cu -o "$gen/gemm.ws.cu" -- -Iexamples/gemm
"$tool" examples/gemm-f16/gemm.cu -o "$gen/gemm-f16.ws.cu" -- -Iexamples/gemm-f16
for l in nn tn tt; do
  "$tool" "examples/gemm-layouts/$l.cu" -o "$gen/gemm-$l.ws.cu" -- -Iexamples/gemm-layouts
  "$tool" "examples/gemm-layouts/$l.cu" -o "$gen/gemm-$l-f16.ws.cu" -- -Iexamples/gemm-layouts -DGEMM_ELEMENT=half
done
(cd "$gen" && sha256sum ./*.ws.cu)
