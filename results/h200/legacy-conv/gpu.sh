#!/usr/bin/env bash
# The hand-written convolutions of examples/legacy-conv on the GPU: the file
# as written, its --migrate form (GEN/conv.migrated.cu) and its rewrite
# (GEN/conv.ws.cu, migrated and warp-specialized in one run), each built as
# a shared library, checked by examples/legacy-conv/check.py against
# PyTorch's float32 conv2d on small and ragged shapes, then the original and
# the rewrite checked and timed on large ones; racecheck and synccheck on the
# rewrite. The table is printed last; everything lands in OUT. ONLY (a
# comma-separated list of kernels) limits the checks and timings to those.
#   bash results/h200/legacy-conv/gpu.sh OUT GEN
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" build/legacy-conv
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Xcompiler -fPIC -shared
  -diag-suppress 20199)
nvcc "${flags[@]}" examples/legacy-conv/conv.cu -o build/legacy-conv/orig.so >"$out/build-orig.log" 2>&1 &
nvcc "${flags[@]}" "$gen/conv.migrated.cu" -o build/legacy-conv/migrated.so >"$out/build-migrated.log" 2>&1 &
nvcc "${flags[@]}" -Xptxas -v "$gen/conv.ws.cu" -o build/legacy-conv/ws.so >"$out/build-ws.log" 2>&1 &
wait
(cd "$gen" && sha256sum conv.migrated.cu conv.ws.cu) >"$out/sha256.txt"
grep -iE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill' "$out/build-ws.log" | grep -v _reference && echo "PTXAS WARNINGS"
for tool in racecheck synccheck; do
  timeout 300 compute-sanitizer --tool $tool --error-exitcode 1 --kernel-regex kns=_tiled \
    python3 examples/legacy-conv/check.py --orig build/legacy-conv/orig.so \
    --rewritten build/legacy-conv/ws.so --out "$out/$tool" ${ONLY:+--only "$ONLY"} >"$out/$tool.log" 2>&1 || echo "SANITIZER FAIL $tool"
  tail -n 1 "$out/$tool.log"
done
timeout -k 10 400 python3 examples/legacy-conv/check.py --orig build/legacy-conv/orig.so \
  --migrated build/legacy-conv/migrated.so --rewritten build/legacy-conv/ws.so --out "$out" --time \
  ${ONLY:+--only "$ONLY"} \
  2>&1 | tee "$out/check.log" | tail -n 25
