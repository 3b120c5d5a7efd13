#!/usr/bin/env bash
# Writes the inputs of gpu.sh into GEN (default gen/legacy-corpus): each kernel
# of test/corpus/Inputs/legacy that has a driver here, as written (X.cu) and
# rewritten by the tool (X.ws.cu), with its driver (X_main.cu) and compare.py.
#   bash results/h200/legacy-corpus/make.sh [GEN]      (where the tool is built)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
tool=${TAWA_REWRITE:-build/tool/tawa-rewrite/tawa-rewrite}
here=results/h200/legacy-corpus
gen=${1:-gen/legacy-corpus}
mkdir -p "$gen"
cp "$here/compare.py" "$here/drivers/driver.h" "$gen/"
for d in "$here"/drivers/*_main.cu; do
  x=$(basename "$d" _main.cu)
  cp "$d" "test/corpus/Inputs/legacy/$x.cu" "$gen/"
  "$tool" "$gen/$x.cu" -o "$gen/$x.ws.cu" -- --cuda-gpu-arch=sm_90a -Iinclude 2>/dev/null
done
ls "$gen"/*.ws.cu | wc -l
