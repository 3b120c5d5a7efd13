#!/usr/bin/env bash
# On the GPU machine: the example with the tensor maps prefetched at kernel
# start (gen/gemm.ws.cu) against the same output without it
# (gen/old/gemm.ws.cu, the output of the commit before), bf16. The two
# builds run in turn, three processes each, every shape checked and timed
# against cuBLAS in the same process. Prints our median times (us) and
# new / old; writes JSON under OUT_DIR.
#
# usage: bash results/h100/prefetch/ab.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
out=${1:?usage: ab.sh OUT_DIR}
mkdir -p "$out" build/exp
shapes=${SHAPES:-512x512x512,1000x1016x512,1024x1024x1024,128x4096x4096,256x8192x1024,1024x1280x2048,1024x2560x2048,4096x4096x4096,8192x8192x512,8192x8192x1024}
nv() { nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm \
  -DGEMM_ELEMENT=bf16 "$@" examples/gemm/main.cu -lcublas; }
nv gen/gemm.ws.cu -o build/exp/new >"$out/build-new.log" 2>&1 &
nv gen/old/gemm.ws.cu -o build/exp/old >"$out/build-old.log" 2>&1 &
wait
rc=0
for rep in 1 2 3; do
  for b in old new; do
    timeout 200 build/exp/$b --label $b --shapes "$shapes" --time --pairs ${PAIRS:-40} \
      --json "$out/$b-$rep.json" >"$out/$b-$rep.log" 2>&1 || rc=1
  done
done
echo "== FAIL lines: $(cat "$out"/*.log | grep -c FAIL)"
python3 - "$out" <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
t = {}
for f in glob.glob(f"{out}/*-[123].json"):
    d = json.load(open(f))
    for r in d["results"]:
        e = t.setdefault(r["shape"], {})
        e.setdefault(d["label"], []).append(r["ms"] * 1e3 if r["pass"] else float("nan"))
        e.setdefault("cublas", []).append(r["cublas_ms"] * 1e3)
print(f"{'shape':<16}{'old':>8}{'new':>8}{'cuBLAS':>8}  new/old  (old runs | new runs)")
for s in sorted(t, key=lambda s: [int(x) for x in s.split('x')]):
    e = t[s]
    med = {k: statistics.median(v) for k, v in e.items()}
    print(f"{s:<16}{med['old']:8.2f}{med['new']:8.2f}{med['cublas']:8.2f}  {med['new'] / med['old']:7.3f}  ("
          + " ".join(f"{x:.2f}" for x in e['old']) + " | " + " ".join(f"{x:.2f}" for x in e['new']) + ")")
json.dump(t, open(f"{out}/ab.json", "w"), indent=1)
PY
exit $rc
