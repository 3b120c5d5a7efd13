#!/usr/bin/env bash
# Idle consumer warpgroups measured: the rewritten bf16 NT GEMM before
# (GEN/base) and after (GEN/idle) a cooperative consumer whose rows start past
# C's last row stopped issuing wgmma, on decode and ragged-row shapes; beside
# them, whole-kernel variants of examples/gemm (results/h100/make-variants.sh:
# cluster(2), 128 x 128 ping-pong, 128 x 192 tiles) on the odd-pitch and
# medium squares, and ncu's view of the base kernel on three shapes. Each
# shape is checked, then timed against cuBLAS in the same process.
#   bash results/h100/idle-rows/gpu.sh OUT GEN VARIANTS_DIR
# The table is printed last; everything lands in OUT.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN VARIANTS_DIR}
gen=${2:?}
variants=${3:?}
mkdir -p "$out" build/idle
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm
  -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt -lineinfo)
build() { # name source
  nvcc "${flags[@]}" -Xptxas -v "$2" examples/gemm/main.cu -o "build/idle/$1" -lcublas \
    >"$out/build-$1.log" 2>&1 || echo "BUILD FAIL $1"
}
build base "$gen/base/gemm.ws.cu" &
build idle "$gen/idle/gemm.ws.cu" &
for v in cluster pingpong n192; do build "$v" "$variants/$v.ws.cu" & done
wait
grep -lE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill' "$out"/build-*.log && echo "PTXAS WARNINGS"
rows=${ROWS:-16x4096x4096,32x11008x4096,64x4096x11008,64x4096x4096,100x4096x4096,192x4096x4096,320x4096x4096,3000x3000x3000,4096x4096x4096}
squares=${SQUARES:-3000x3000x3000,3000x3000x3008,2000x2000x2008,2000x2000x2000,1536x1536x1536,1000x1000x1000,256x22016x4096,4096x4096x4096}
run() { # name shapes
  timeout 120 "build/idle/$1" --label "$1" --shapes "$2" --time --pairs 30 --warmup 3 \
    --json "$out/$1-$3.json" >"$out/$1-$3.log" 2>&1 || echo "RUN FAIL $1 $3 rc=$?"
}
for v in base idle; do run $v "$rows" rows; done
for v in base idle; do run $v "$rows" rows2; done
for v in base cluster pingpong n192; do run $v "$squares" squares; done
grep -h "FAIL" "$out"/*.log | head
# ncu: the base kernel's speed of light, memory and stall picture.
for s in 16x4096x4096 3000x3000x3000 3000x3000x3008; do
  timeout 150 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section LaunchStats -k regex:'gemm_nt$|gemm_nt_narrow' -c 1 \
    build/idle/base --shapes "$s" >"$out/ncu-base-$s.txt" 2>&1 || echo "NCU FAIL $s"
done
timeout 100 ncu --clock-control none --section SpeedOfLight --section WarpStateStats -k regex:'gemm_nt$|gemm_nt_narrow' -c 1 \
  build/idle/idle --shapes 16x4096x4096 >"$out/ncu-idle-16x4096x4096.txt" 2>&1 || echo "NCU FAIL idle"
python3 - "$out" <<'PY' | tee "$out/table.txt"
import glob, json, os, sys
rows = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    name = os.path.basename(path)[:-5]
    v, part = name.rsplit("-", 1)
    for r in json.load(open(path))["results"]:
        cell = f"{r['ratio']:.3f} {1e3 * r['ms']:.1f}us" if r.get("ratio") else ("FAIL" if not r.get("pass") else "-")
        rows.setdefault((part, r["shape"]), {})[v] = cell
cols = ["base", "idle", "cluster", "pingpong", "n192"]
print(f"{'part':8} {'shape':16} " + " ".join(f"{c:>15}" for c in cols))
for (part, s), m in sorted(rows.items()):
    print(f"{part:8} {s:16} " + " ".join(f"{m.get(c, ''):>15}" for c in cols))
PY
