#!/usr/bin/env bash
# On the GPU machine: do the narrow kernels gain from a 2-CTA cluster that
# multicasts B (the example's cluster(2) variant, gen/variants/cluster.ws.cu,
# whose narrow kernels take the clause and run without the split) at
# launches of few tiles? Each narrow width forced by TAWA_NARROW, and the
# launcher's choice, for the example and the variant, bf16, checked and timed
# against cuBLAS in the same process. Prints our median times (us).
#
# usage: bash results/h100/width192/cluster-probe.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
out=${1:?usage: cluster-probe.sh OUT_DIR}
mkdir -p "$out" build/exp
shapes=${SHAPES:-128x4096x4096,256x4096x4096,1024x1024x1024,512x2048x2048,256x5120x4096,1024x1280x2048,1024x2048x2048,512x4096x8192,1024x2304x2048,1024x2560x2048,2048x1280x4096,1024x3072x2048,1024x3584x2048}
nv() { nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm \
  -DGEMM_ELEMENT=bf16 "$@" examples/gemm/main.cu -lcublas; }
nv gen/gemm.ws.cu -o build/exp/plain >"$out/build-plain.log" 2>&1 &
nv gen/variants/cluster.ws.cu -o build/exp/cluster >"$out/build-cluster.log" 2>&1 &
wait
rc=0
for b in plain cluster; do
  for mode in auto 64 128 192; do
    TAWA_NARROW=$mode timeout 200 build/exp/$b --label $b-$mode --shapes "$shapes" --time \
      --pairs ${PAIRS:-30} --json "$out/$b-$mode.json" >"$out/$b-$mode.log" 2>&1 || rc=1
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
        e = t.setdefault(r["shape"], {})
        e[d["label"]] = r["ms"] * 1e3 if r["pass"] else float("nan")
        e.setdefault("cublas", []).append(r["cublas_ms"] * 1e3)
cols = [f"{b}-{m}" for b in ("plain", "cluster") for m in ("auto", "64", "128", "192")]
print(f"{'shape':<16}{'wide':>5}" + "".join(f"{c[:1] + c.split('-')[1]:>7}" for c in cols) + f"{'cuBLAS':>8}")
for s in sorted(t, key=lambda s: [int(x) for x in s.split('x')]):
    m, n, k = map(int, s.split('x'))
    e = t[s]
    print(f"{s:<16}{-(-m // 128) * -(-n // 256):>5}" + "".join(f"{e.get(c, float('nan')):7.1f}" for c in cols)
          + f"{statistics.median(e['cublas']):8.1f}")
json.dump(t, open(f"{out}/cluster-probe.json", "w"), indent=1)
PY
exit $rc
