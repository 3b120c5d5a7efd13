#!/usr/bin/env bash
# On the GPU machine: does a CTA tile of 128 x 192 run launches of 40 to 128
# wide (128 x 256) tiles faster than the kernels the launcher has? Builds the
# example as rewritten (gen/gemm.ws.cu) and its 192-column variant
# (gen/variants/n192.ws.cu, from results/h100/make-variants.sh), bf16; runs
# the example's wide kernel (TAWA_NARROW=off), its 128 x 128 one
# (TAWA_NARROW=128), the launcher's choice, and the variant's 128 x 192 kernel
# (TAWA_NARROW=off), each shape checked and timed against cuBLAS in the same
# process, twice. Prints our median time per kernel (us); writes JSON.
#
# usage: bash results/h100/width192/probe.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
out=${1:?usage: probe.sh OUT_DIR}
mkdir -p "$out" build/exp
shapes=${SHAPES:-1024x1280x2048,256x5120x4096,1024x1792x2048,1024x2048x2048,512x4096x8192,256x8192x1024,1024x2560x2048,1024x2560x8192,512x6144x1024,768x4096x8192,1024x3072x2048,1024x3072x16384,1024x3584x2048,1024x4096x2048,1024x4096x8192}
build() {
  timeout 300 nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
    -Iexamples/gemm -DGEMM_ELEMENT=bf16 -Xptxas -v "$2" examples/gemm/main.cu \
    -o build/exp/$1 -lcublas >"$out/build-$1.log" 2>&1
}
build w256 gen/gemm.ws.cu & build w192 gen/variants/n192.ws.cu &
wait
grep -H -E "spill|warning|\(C7" "$out"/build-*.log | grep -v " 0 bytes spill stores, 0 bytes spill loads" | head
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
rc=0
for rep in 1 2; do
  for run in w256:off:wide w256:128:n128 w256:auto:chosen w192:off:n192; do
    IFS=: read -r b mode label <<<"$run"
    env $([ $mode = auto ] || echo TAWA_NARROW=$mode) timeout 200 build/exp/$b --label $label \
      --shapes "$shapes" --time --pairs ${PAIRS:-40} --json "$out/$label-$rep.json" \
      >"$out/$label-$rep.log" 2>&1 || rc=1
  done
done
echo "== FAIL lines: $(cat "$out"/*.log | grep -c FAIL)"
python3 - "$out" <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
t = {}
for f in glob.glob(f"{out}/*-[12].json"):
    d = json.load(open(f))
    for r in d["results"]:
        us = r["ms"] * 1e3 if r["pass"] else float("nan")
        t.setdefault(r["shape"], {}).setdefault(d["label"], []).append(us)
        t[r["shape"]].setdefault("cublas", []).append(r["cublas_ms"] * 1e3)
labels = ("wide", "n128", "chosen", "n192", "cublas")
print(f"{'shape':<17}{'wide':>5}{'t192':>5}" + "".join(f"{l:>8}" for l in labels) + "  n192/chosen  n192/cuBLAS")
for s in sorted(t, key=lambda s: [int(x) for x in s.split('x')]):
    m, n, k = map(int, s.split('x'))
    wide = -(-m // 128) * -(-n // 256)
    t192 = -(-m // 128) * -(-n // 192)
    med = {l: statistics.median(v) for l, v in t[s].items()}
    print(f"{s:<17}{wide:>5}{t192:>5}" + "".join(f"{med.get(l, float('nan')):8.1f}" for l in labels)
          + f"  {med['chosen'] / med['n192']:11.3f}  {med['cublas'] / med['n192']:11.3f}")
json.dump(t, open(f"{out}/probe.json", "w"), indent=1)
PY
exit $rc
