#!/usr/bin/env bash
# Rewrites every example the GEMM sweep (bench/gemm-sweep.sh) builds into
# GEN_DIR (default gen/sweep): the NT examples (gemm, gemm-f16),
# examples/gemm-layouts' nn, tn and tt as bf16 and as fp16, the fp8 GEMMs and
# the fused epilogues. Runs where tawa-rewrite is built (no GPU needed).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
tool=${TAWA_REWRITE:-build/tool/tawa-rewrite/tawa-rewrite}
gen=${GEN_DIR:-gen/sweep}
mkdir -p "$gen"
"$tool" examples/gemm/gemm.cu -o "$gen/gemm.ws.cu" -- -Iexamples/gemm
"$tool" examples/gemm-f16/gemm.cu -o "$gen/gemm-f16.ws.cu" -- -Iexamples/gemm-f16
for l in nn tn tt; do
  "$tool" "examples/gemm-layouts/$l.cu" -o "$gen/gemm-$l.ws.cu" -- -Iexamples/gemm-layouts
  "$tool" "examples/gemm-layouts/$l.cu" -o "$gen/gemm-$l-f16.ws.cu" -- \
    -Iexamples/gemm-layouts -DGEMM_ELEMENT=half
done
"$tool" examples/gemm-fp8/gemm_fp8.cu -o "$gen/gemm_fp8.ws.cu" -- -Iexamples/gemm-fp8
"$tool" examples/gemm-epilogue/epilogue.cu -o "$gen/epilogue.ws.cu" -- -Iexamples/gemm-epilogue
(cd "$gen" && sha256sum ./*.ws.cu)
