#!/usr/bin/env bash
# Times the variants of variants.sh (GEN_DIR, default gen/fp8v) and the
# default rewrite (DEFAULT_DIR, default gen/fp8) on the GPU, each checked
# before it is timed (examples/gemm-fp8/main.cu): usage
#   bash results/h100/fp8/gpu-variants.sh OUT [GEN_DIR] [DEFAULT_DIR]
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu-variants.sh OUT [GEN_DIR] [DEFAULT_DIR]}
gen=${2:-gen/fp8v}
def=${3:-gen/fp8}
mkdir -p "$out" build/fp8v
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm-fp8)
libs=(-lcublas -lcublasLt -lcuda)
cp "$def/gemm_fp8.ws.cu" "$gen/default.ws.cu"
variants=(default cluster pingpong coop128)
for v in "${variants[@]}"; do
  nvcc "${flags[@]}" -Xptxas -v "$gen/$v.ws.cu" examples/gemm-fp8/main.cu \
    -o "build/fp8v/$v" "${libs[@]}" >"$out/build-$v.log" 2>&1 &
done
wait
rc=0
shapes=${TIME_SHAPES:-4096x4096x4096,8192x8192x8192,8192x8192x4096,16384x4096x4096,4096x11008x4096,6144x6144x6144,2048x2048x2048,128x4096x4096,512x4096x4096}
for v in "${variants[@]}"; do
  grep -E "warning|[1-9][0-9]* bytes spill" "$out/build-$v.log" | grep -v _reference | head -3
  timeout 200 "build/fp8v/$v" --label "$v" --time --shapes "$shapes" \
    --json "$out/$v.json" >"$out/$v.log" 2>&1 || rc=1
done
for v in "${variants[@]}"; do cat "$out/$v.log"; done | sort -k2,2 -k3,3 -s |
  awk '{r = ""; for (i = 1; i <= NF; ++i) if ($i == "ratio") { r = r " " $(i + 1) }
        printf "%-9s %-14s %-16s %s%s\n", $1, $2, $3, $4, r}'
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out"
exit $rc
