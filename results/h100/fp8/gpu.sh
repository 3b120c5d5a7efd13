#!/usr/bin/env bash
# The fp8 GEMMs on a Hopper GPU, in one call: usage
#   bash results/h100/fp8/gpu.sh OUT [GEN_DIR]
# with GEN_DIR (default gen/fp8) written by rewrite.sh.
#   1. the kernels as written (the reference of tile.h) checked on small and
#      ragged shapes;
#   2. the rewritten kernels checked on the same shapes, also with the narrow
#      kernels forced and with the split tail off (every kernel and store
#      path), and compute-sanitizer racecheck and synccheck on one small
#      shape;
#   3. check and time against cuBLASLt fp8 (examples/gemm-fp8/main.cu says
#      how) on large, medium, ragged and skinny shapes; the table is last.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT [GEN_DIR]}
gen=${2:-gen/fp8}
mkdir -p "$out" build/fp8
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm-fp8)
libs=(-lcublas -lcublasLt -lcuda)
rc=0
nvcc "${flags[@]}" examples/gemm-fp8/gemm_fp8.cu examples/gemm-fp8/main.cu \
  -o build/fp8/ref "${libs[@]}" >"$out/build-ref.log" 2>&1 &
nvcc "${flags[@]}" -Xptxas -v "$gen/gemm_fp8.ws.cu" examples/gemm-fp8/main.cu \
  -o build/fp8/ws "${libs[@]}" >"$out/build-ws.log" 2>&1 &
wait
grep -E "warning|error" "$out/build-ref.log" "$out/build-ws.log" | head -5
small=129x257x73,1000x1016x520,256x512x1024,300x4096x208,64x128x4096
echo "== reference"
timeout 300 build/fp8/ref --label ref --shapes "$small" --json "$out/ref.json" \
  2>&1 | tee "$out/ref.log" || rc=1
echo "== rewritten"
timeout 120 build/fp8/ws --label ws --shapes "$small" --json "$out/ws.json" \
  2>&1 | tee "$out/ws.log" || rc=1
echo "== rewritten, narrow kernels forced"
TAWA_NARROW=force timeout 120 build/fp8/ws --label ws-narrow --shapes "$small" \
  --json "$out/ws-narrow.json" 2>&1 | tee "$out/ws-narrow.log" || rc=1
echo "== rewritten, split tail off"
TAWA_SPLIT_TAIL=off TAWA_NARROW=off timeout 120 build/fp8/ws --label ws-whole \
  --shapes "$small" --json "$out/ws-whole.json" 2>&1 | tee "$out/ws-whole.log" || rc=1
for tool in racecheck synccheck; do
  echo "== $tool"
  timeout 240 compute-sanitizer --tool $tool --error-exitcode 3 build/fp8/ws \
    --label ws --shapes 384x768x320 2>&1 | tail -3 | tee "$out/$tool.log" || rc=1
done
echo "== timed"
timeout 400 build/fp8/ws --label ws --time \
  --shapes "${TIME_SHAPES:-4096x4096x4096,8192x8192x8192,8192x8192x4096,16384x4096x4096,4096x11008x4096,6144x6144x6144,2048x2048x2048,1000x1016x520,128x4096x4096}" \
  --json "$out/timed.json" 2>&1 | tee "$out/timed.log" || rc=1
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out"
exit $rc
