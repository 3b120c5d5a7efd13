#!/usr/bin/env bash
# On the GPU machine: the narrow widths 64 and 128 against the wide kernel
# (128 x 256) at launches of 16 to 128 wide tiles, bf16. gen/exp/w64.ws.cu is
# the example as rewritten, gen/exp/w128.ws.cu the example with narrow(128).
# Each kernel is forced by TAWA_NARROW (force: the narrow one, off: the wide
# one), checked and timed against cuBLAS in the same process, twice. Prints
# our median time per kernel (us) and the fastest; writes JSON under OUT_DIR.
#
# usage: bash results/h100/narrow-widths/widths.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
out=${1:?usage: widths.sh OUT_DIR}
mkdir -p "$out" build/exp
shapes=${SHAPES:-128x4096x4096,128x8192x4096,1024x1024x2048,1024x1280x2048,1024x1536x2048,1024x1792x2048,1024x2048x2048,256x5120x4096,256x6144x2048,256x8192x1024,1024x2560x2048,1024x3072x2048,512x6144x1024,1024x4096x2048}
for v in w64 w128; do
  timeout 300 nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
    -Iexamples/gemm -DGEMM_ELEMENT=bf16 -Xptxas -v gen/exp/$v.ws.cu examples/gemm/main.cu \
    -o build/exp/$v -lcublas >"$out/build-$v.log" 2>&1 &
done
wait
grep -H -E "spill|warning|\(C7" "$out"/build-*.log | grep -v " 0 bytes spill stores, 0 bytes spill loads" | head
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
rc=0
for rep in 1 2; do
  for run in w64:off:wide w64:force:n64 w128:force:n128; do
    IFS=: read -r b mode label <<<"$run"
    TAWA_NARROW=$mode timeout 200 build/exp/$b --label $label --shapes "$shapes" --time \
      --pairs ${PAIRS:-40} --json "$out/$label-$rep.json" >"$out/$label-$rep.log" 2>&1 || rc=1
  done
done
echo "== FAIL lines: $(cat "$out"/*.log | grep -c FAIL)"
python3 - "$out" <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
t = {}
for f in glob.glob(f"{out}/*.json"):
    d = json.load(open(f))
    for r in d["results"]:
        us = r["ms"] * 1e3 if r["pass"] else float("nan")
        t.setdefault(r["shape"], {}).setdefault(d["label"], []).append(us)
        t[r["shape"]].setdefault("cublas", []).append(r["cublas_ms"] * 1e3)
print(f"{'shape':<16}{'tiles':>6}{'wide':>8}{'n64':>8}{'n128':>8}{'cuBLAS':>8}  best  best/cuBLAS")
for s in sorted(t, key=lambda s: [int(x) for x in s.split('x')]):
    m, n, k = map(int, s.split('x'))
    tiles = -(-m // 128) * -(-n // 256)
    med = {l: statistics.median(v) for l, v in t[s].items()}
    best = min(("wide", "n64", "n128"), key=lambda l: med.get(l, 1e9))
    print(f"{s:<16}{tiles:>6}" + "".join(f"{med.get(l, float('nan')):8.1f}" for l in ("wide", "n64", "n128", "cublas"))
          + f"  {best:<5} {med['cublas'] / med[best]:.3f}")
json.dump(t, open(f"{out}/widths.json", "w"), indent=1)
PY
exit $rc
