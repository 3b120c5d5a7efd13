#!/usr/bin/env bash
# Launches of a few tile rows measured: the rewritten bf16 NT GEMM
# (GEN/gemm.ws.cu) as the launcher chooses, and with each kernel forced
# (TAWA_NARROW=off, 64, 128, 192), beside two edits of the same file that
# change only which narrow kernel of 64 or 128 columns runs: `coop` never runs
# the ping-pong twin, `pp` always does. Row counts of 128-448 over 4096 x
# 4096, and the medium squares. Each shape is checked, then timed against
# cuBLAS in the same process; ncu's view of 192 and 256 rows last.
#   bash results/h100/few-rows/gpu.sh OUT GEN
# The table is printed last; everything lands in OUT.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" build/few
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm
  -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt -lineinfo)
sed 's/(C\.rows > 64 ?/(false ?/' "$gen/gemm.ws.cu" >build/few/coop.ws.cu
sed 's/(C\.rows > 64 ?/(true ?/' "$gen/gemm.ws.cu" >build/few/pp.ws.cu
cp "$gen/gemm.ws.cu" build/few/base.ws.cu
sha256sum build/few/*.ws.cu >"$out/sha256.txt"
for v in base coop pp; do
  nvcc "${flags[@]}" -Xptxas -v "build/few/$v.ws.cu" examples/gemm/main.cu -o "build/few/$v" \
    -lcublas >"$out/build-$v.log" 2>&1 || echo "BUILD FAIL $v" &
done
wait
grep -lE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill' "$out"/build-*.log && echo "PTXAS WARNINGS"
rows=${ROWS:-128x4096x4096,160x4096x4096,192x4096x4096,224x4096x4096,256x4096x4096,320x4096x4096,384x4096x4096,448x4096x4096,192x11008x4096}
squares=${SQUARES:-768x768x768,1000x1000x1000,1024x1024x1024,1536x1536x1536,2000x2000x2000}
run() { # binary label shapes part [env]
  env ${5:-} timeout 120 "build/few/$1" --label "$2" --shapes "$3" --time --pairs 20 --warmup 3 \
    --json "$out/$2-$4.json" >"$out/$2-$4.log" 2>&1 || echo "RUN FAIL $2 $4 rc=$?"
}
for part in rows squares; do
  [ $part = rows ] && shapes=$rows || shapes=$squares
  run base base "$shapes" $part
  run coop coop "$shapes" $part
  run pp pp "$shapes" $part
  for n in off 64 128 192; do
    run base "n$n" "$shapes" $part TAWA_NARROW=$n
    [ "$n" = 64 ] || [ "$n" = 128 ] && run coop "coop$n" "$shapes" $part TAWA_NARROW=$n
  done
done
grep -h "FAIL" "$out"/*.log | head
for s in 192x4096x4096 256x4096x4096; do
  timeout 120 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section LaunchStats -k regex:'gemm_nt' -c 1 \
    build/few/base --shapes "$s" >"$out/ncu-$s.txt" 2>&1 || echo "NCU FAIL $s"
done
python3 - "$out" <<'PY' | tee "$out/table.txt"
import glob, json, os, sys
rows, cols = {}, []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    v, part = os.path.basename(path)[:-5].rsplit("-", 1)
    cols += [v] if v not in cols else []
    for r in json.load(open(path))["results"]:
        cell = f"{r['ratio']:.2f} {1e3 * r['ms']:.1f}" if r.get("ratio") else ("FAIL" if not r.get("pass") else "-")
        rows.setdefault((part, r["shape"]), {})[v] = cell
order = [c for c in ["base", "coop", "pp", "noff", "n64", "coop64", "n128", "coop128", "n192"] if c in cols]
print("ratio to cuBLAS and time in us")
print(f"{'part':8} {'shape':15} " + " ".join(f"{c:>11}" for c in order))
for (part, s), m in sorted(rows.items()):
    print(f"{part:8} {s:15} " + " ".join(f"{m.get(c, ''):>11}" for c in order))
PY
