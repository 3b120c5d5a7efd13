#!/usr/bin/env bash
# The fused epilogues on a Hopper GPU, in one call: usage
#   bash results/h100/epilogue/gpu.sh OUT [GEN_DIR]
# with GEN_DIR (default gen/epilogue) written by rewrite.sh.
#   1. the kernels as written (the reference of tile.h) checked on small and
#      ragged shapes;
#   2. the rewritten kernels checked on the same shapes, also with the narrow
#      kernels forced and with the split tail off (TAWA_NARROW=force,
#      TAWA_SPLIT_TAIL=off: every store path), and compute-sanitizer
#      racecheck and synccheck on one small shape;
#   3. check and time against cuBLAS / cuBLASLt (examples/gemm-epilogue/main.cu
#      says which baseline each epilogue has) on large, medium, ragged and
#      skinny shapes; the table is printed last.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT [GEN_DIR]}
gen=${2:-gen/epilogue}
mkdir -p "$out" build/epilogue
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm-epilogue)
libs=(-lcublas -lcublasLt -lcuda)
rc=0
nvcc "${flags[@]}" examples/gemm-epilogue/epilogue.cu examples/gemm-epilogue/main.cu \
  -o build/epilogue/ref "${libs[@]}" >"$out/build-ref.log" 2>&1 &
nvcc "${flags[@]}" -Xptxas -v "$gen/epilogue.ws.cu" examples/gemm-epilogue/main.cu \
  -o build/epilogue/ws "${libs[@]}" >"$out/build-ws.log" 2>&1 &
wait
grep -E "warning|[1-9][0-9]* bytes spill" "$out/build-ws.log" | head -5
small=129x257x73,1000x1016x520,256x512x1024,300x4096x200
echo "== reference"
timeout 300 build/epilogue/ref --label ref --shapes "$small" --json "$out/ref.json" \
  2>&1 | tee "$out/ref.log" || rc=1
echo "== rewritten"
timeout 120 build/epilogue/ws --label ws --shapes "$small" --json "$out/ws.json" \
  2>&1 | tee "$out/ws.log" || rc=1
echo "== rewritten, narrow kernels forced"
TAWA_NARROW=force timeout 120 build/epilogue/ws --label ws-narrow --shapes "$small" \
  --json "$out/ws-narrow.json" 2>&1 | tee "$out/ws-narrow.log" || rc=1
echo "== rewritten, split tail off"
TAWA_SPLIT_TAIL=off TAWA_NARROW=off timeout 120 build/epilogue/ws --label ws-whole \
  --shapes "$small" --json "$out/ws-whole.json" 2>&1 | tee "$out/ws-whole.log" || rc=1
for tool in racecheck synccheck; do
  echo "== $tool"
  timeout 240 compute-sanitizer --tool $tool --error-exitcode 3 build/epilogue/ws \
    --label ws --shapes 384x768x320 2>&1 | tail -3 | tee "$out/$tool.log" || rc=1
done
echo "== timed"
timeout 400 build/epilogue/ws --label ws --time \
  --shapes "${TIME_SHAPES:-4096x4096x4096,8192x8192x4096,2048x2048x2048,4096x11008x4096,1000x1016x520,128x4096x4096}" \
  --json "$out/timed.json" 2>&1 | tee "$out/timed.log" || rc=1
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out"
exit $rc
