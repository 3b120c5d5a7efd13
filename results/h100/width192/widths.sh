#!/usr/bin/env bash
# On the GPU machine: narrow kernels of 64, 128, 160, 192 and 224 columns
# (gen/exp/widths5.ws.cu: the example with narrow(64, 128, 160, 192, 224))
# against the wide one at launches of 64 to 128 wide tiles, bf16. 160 and
# 224 columns are not multiples of the 64-column store chunk, so those two
# store directly instead of through staging and TMA. Each kernel is forced
# by TAWA_NARROW, checked and timed against cuBLAS in the same process.
# Prints our median time per kernel (us); writes JSON under OUT_DIR.
#
# usage: bash results/h100/width192/widths.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
out=${1:?usage: widths.sh OUT_DIR}
mkdir -p "$out" build/exp
shapes=${SHAPES:-1024x2048x2048,1024x2304x2048,1024x2560x2048,1024x2560x8192,2048x1280x4096,640x4864x4096,1024x3072x2048,768x3584x4096,1024x3584x2048,1024x4096x2048}
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm \
  -DGEMM_ELEMENT=bf16 -Xptxas -v gen/exp/widths5.ws.cu examples/gemm/main.cu \
  -o build/exp/widths5 -lcublas >"$out/build.log" 2>&1
grep -E "spill|warning|\(C7" "$out/build.log" | grep -v " 0 bytes spill stores, 0 bytes spill loads" | head
rc=0
for mode in off 128 160 192 224; do
  TAWA_NARROW=$mode timeout 200 build/exp/widths5 --label w$mode --shapes "$shapes" --time \
    --pairs ${PAIRS:-30} --json "$out/w$mode.json" >"$out/w$mode.log" 2>&1 || rc=1
done
echo "== FAIL lines: $(cat "$out"/*.log | grep -c FAIL)"
python3 - "$out" <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
t = {}
for f in sorted(glob.glob(f"{out}/w*.json")):
    d = json.load(open(f))
    for r in d["results"]:
        e = t.setdefault(r["shape"], {})
        e[d["label"]] = r["ms"] * 1e3 if r["pass"] else float("nan")
        e.setdefault("cublas", []).append(r["cublas_ms"] * 1e3)
modes = ("woff", "w128", "w160", "w192", "w224")
print(f"{'shape':<17}{'wide':>5}{'t160':>5}{'t192':>5}{'t224':>5}" + "".join(f"{m:>7}" for m in modes) + f"{'cuBLAS':>8}")
for s in sorted(t, key=lambda s: [int(x) for x in s.split('x')]):
    m, n, k = map(int, s.split('x'))
    rows = -(-m // 128)
    e = t[s]
    print(f"{s:<17}{rows * -(-n // 256):>5}{rows * -(-n // 160):>5}{rows * -(-n // 192):>5}{rows * -(-n // 224):>5}"
          + "".join(f"{e.get(x, float('nan')):7.1f}" for x in modes) + f"{statistics.median(e['cublas']):8.1f}")
json.dump(t, open(f"{out}/widths.json", "w"), indent=1)
PY
exit $rc
