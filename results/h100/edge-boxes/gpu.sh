#!/usr/bin/env bash
# Edge boxes measured (tawa/runtime/edge_boxes.cuh): the GEMMs of the sweep's
# rewritten files (GEN, bench/sweep-rewrite.sh) with edge boxes off
# (TAWA_EDGE_BOXES=off: every TMA box loaded whole, the rows past an
# operand's end zero-filled, as before) and on, alternately in two rounds,
# each binary checked against cuBLAS(Lt) and then timed in the same process.
# bf16 NT (both operands K-major), NN (A K-major), TT (B K-major), fp8 and
# the fused epilogues, on shapes whose M or N ends inside a tile and a few
# that do not. SANITIZE=1 adds racecheck and synccheck of the NT GEMM on
# ragged launches. The table is printed last; everything lands in OUT.
#   bash results/h100/edge-boxes/gpu.sh OUT GEN
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" build/edge
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Xptxas -v)
build() { # name source example main extra...
  local name=$1 src=$2 ex=$3 main=$4
  shift 4
  nvcc "${flags[@]}" "-Iexamples/$ex" "$@" "$gen/$src" "examples/$main/main.cu" \
    -o "build/edge/$name" -lcublas -lcublasLt -lcuda >"$out/build-$name.log" 2>&1 ||
    echo "BUILD FAIL $name"
}
build nt gemm.ws.cu gemm gemm -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt &
build nn gemm-nn.ws.cu gemm-layouts gemm -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nn &
build tt gemm-tt.ws.cu gemm-layouts gemm -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=tt &
build fp8 gemm_fp8.ws.cu gemm-fp8 gemm-fp8 &
build epi epilogue.ws.cu gemm-epilogue gemm-epilogue &
wait
(cd "$gen" && sha256sum gemm.ws.cu gemm-nn.ws.cu gemm-tt.ws.cu gemm_fp8.ws.cu epilogue.ws.cu) >"$out/sha256.txt"
awk '/Compiling entry/ { ref = /_reference/ } !ref' "$out"/build-*.log |
  grep -iE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill' && echo "PTXAS WARNINGS"
dense=${DENSE:-16x4096x4096,64x4096x4096,160x4096x4096,192x4096x4096,4096x16x4096,4096x64x4096,4096x128x4096,1000x1000x1000,2056x2056x2056,1920x1080x4100,777x1555x2333,3000x3000x3000,4093x4091x4096,2003x3001x4001,4096x4096x4096}
fp8=${FP8:-16x4096x4096,160x4096x4096,4096x64x4096,1008x1008x1008,2064x2064x2064,3008x3008x3008,4096x4096x4096}
epi=${EPI:-64x4096x4096,192x4096x4096,1000x1000x1000,2056x2056x2056,3000x3000x3000,4096x4096x4096}
run() { # name shapes round mode
  local env=()
  [[ $4 == off ]] && env=(TAWA_EDGE_BOXES=off)
  local pairs=(--pairs 20 --warmup 3)
  [[ $1 == fp8 || $1 == epi ]] && pairs=()
  env "${env[@]}" timeout -k 10 300 "build/edge/$1" --label "$1-$4" --shapes "$2" --time \
    "${pairs[@]}" --json "$out/$1-$4-$3.json" >"$out/$1-$4-$3.log" 2>&1 ||
    echo "RUN FAIL $1 $4 $3 rc=$?"
}
for round in 1 2; do
  for mode in off on; do
    run nt "$dense" $round $mode
    run nn "$dense" $round $mode
    run tt "$dense" $round $mode
    run fp8 "$fp8" $round $mode
    run epi "$epi" $round $mode
  done
done
grep -l "FAIL" "$out"/*.log | head
# The host time of one tensor-map encoding (what each edge map adds to a
# launch).
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude results/h100/edge-boxes/encode-cost.cu -o build/edge/encode-cost \
  >"$out/build-encode-cost.log" 2>&1 && build/edge/encode-cost | tee "$out/encode-cost.txt"
if [[ -n ${SANITIZE:-} ]]; then
  for tool in racecheck synccheck; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 1 build/edge/nt --label nt \
      --shapes 200x328x200,16x520x264,1000x1000x136 >"$out/nt-$tool.log" 2>&1 ||
      echo "SANITIZER FAIL $tool"
    tail -n 2 "$out/nt-$tool.log"
  done
fi
python3 - "$out" <<'PY' | tee "$out/table.txt"
import glob, json, os, statistics, sys
cells = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    name, mode, rnd = os.path.basename(path)[:-5].rsplit("-", 2)
    data = json.load(open(path))
    for r in data["results"] if isinstance(data, dict) else data:
        key = (name, r.get("epilogue", r.get("gemm", "")), r["shape"])
        c = cells.setdefault(key, {"off": [], "on": [], "pass": True})
        c["pass"] &= bool(r.get("pass", False))
        if r.get("ms"):
            c[mode].append((r["ms"], r.get("ratio") or 0))
print("median of the two rounds; ratio = ours / cuBLAS(Lt) in the same process")
print(f"{'gemm':5} {'variant':12} {'shape':16} {'off us':>8} {'on us':>8} {'off/on':>7} {'ratio off':>9} {'ratio on':>9} check")
for (name, var, shape), c in sorted(cells.items()):
    if not c["off"] or not c["on"]:
        print(f"{name:5} {var:12} {shape:16} missing {'PASS' if c['pass'] else 'FAIL'}")
        continue
    off = statistics.median(m for m, _ in c["off"]) * 1e3
    on = statistics.median(m for m, _ in c["on"]) * 1e3
    roff = statistics.median(x for _, x in c["off"])
    ron = statistics.median(x for _, x in c["on"])
    print(f"{name:5} {var:12} {shape:16} {off:8.1f} {on:8.1f} {off / on:7.2f} {roff:9.2f} {ron:9.2f} {'PASS' if c['pass'] else 'FAIL'}")
PY
