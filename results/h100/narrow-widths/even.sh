#!/usr/bin/env bash
# On the GPU machine: launches of at most half as many tiles as SMs, whose
# tiles split_tail.cuh may split evenly by K from the start (decide_even),
# with the split off (TAWA_SPLIT_TAIL=off), as the cost model decides, and
# forced; on the kernel the launcher chooses and on the wide one
# (TAWA_NARROW=off). bf16, built from gen/gemm.ws.cu into build/even/ (rebuilt
# each run: the runtime headers change between experiments). Each shape
# checked and timed against cuBLAS, two processes each; our median times
# (us) are printed last.
#
# usage: bash results/h100/narrow-widths/even.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
out=${1:?usage: even.sh OUT_DIR}
mkdir -p "$out" build/even
bin=build/even/gemm-check-bf16
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm \
  -DGEMM_ELEMENT=bf16 gen/gemm.ws.cu examples/gemm/main.cu -o $bin -lcublas >"$out/build.log" 2>&1 ||
  { echo "build failed"; exit 1; }
narrow=${NARROW_SHAPES:-128x4096x4096,128x2048x8192,256x2048x8192,128x1024x16384,512x1024x4096,128x1024x4096,256x1024x2048,512x512x512,128x8192x4096}
wide=${WIDE_SHAPES:-512x4096x8192,256x2048x8192,128x4096x4096}
rc=0
for rep in 1 2; do
  for split in off model force; do
    s=$split && [[ $split == model ]] && s=
    TAWA_SPLIT_TAIL=$s timeout 200 $bin --label "n-$split" --shapes "$narrow" --time --pairs 40 \
      --json "$out/n-$split-$rep.json" >"$out/n-$split-$rep.log" 2>&1 || rc=1
    TAWA_NARROW=off TAWA_SPLIT_TAIL=$s timeout 200 $bin --label "w-$split" --shapes "$wide" --time \
      --pairs 40 --json "$out/w-$split-$rep.json" >"$out/w-$split-$rep.log" 2>&1 || rc=1
  done
done
echo "== FAIL lines: $(cat "$out"/*.log | grep -c FAIL)"
python3 - "$out" <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
t = {}
for f in glob.glob(f"{out}/*.json"):
    d = json.load(open(f))
    kern, split = d["label"].split("-")
    for r in d["results"]:
        e = t.setdefault((kern, r["shape"]), {})
        e.setdefault(split, []).append(r["ms"] * 1e3 if r["pass"] else float("nan"))
        e.setdefault("cublas", []).append(r["cublas_ms"] * 1e3)
labels = ("off", "model", "force", "cublas")
print(f"{'kernel':<7}{'shape':<16}" + "".join(f"{l:>9}" for l in labels) + "  model/cuBLAS")
for (kern, s) in sorted(t, key=lambda k: (k[0], [int(x) for x in k[1].split('x')])):
    e = {l: statistics.median(v) for l, v in t[(kern, s)].items()}
    print(f"{'narrow' if kern == 'n' else 'wide':<7}{s:<16}" + "".join(f"{e.get(l, float('nan')):9.1f}" for l in labels)
          + f"  {e['cublas'] / e['model']:12.3f}")
json.dump({f"{k[0]}:{k[1]}": v for k, v in t.items()}, open(f"{out}/even.json", "w"), indent=1)
PY
exit $rc
