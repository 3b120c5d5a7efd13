#!/usr/bin/env bash
# Times variants of the bf16 example against cuBLAS, interleaved in one
# process (examples/gemm/main.cu --time), twice each, and prints a table of
# ours/cuBLAS per shape (run1/run2) with the geometric mean.
#
# usage: bash results/experiments/run.sh OUT_DIR VARIANT...
#   VARIANT  gen/exp/VARIANT.ws.cu, a rewritten (and possibly hand-edited)
#            copy of examples/gemm/gemm.cu, built against include/, or
#            against gen/exp/VARIANT/include/ where that folder exists (a
#            copy of the runtime with a change). VARIANT_off runs the build of
#            VARIANT with TAWA_SPLIT_TAIL=off in the environment.
# environment: SHAPES (comma-separated MxNxK), PAIRS (timed pairs, default 30).
set -uo pipefail
out=${1:?usage: run.sh OUT_DIR VARIANT...}
shift
mkdir -p "$out" build/exp
vs=("$@")
shapes=${SHAPES:-4096x4096x4096,6144x6144x6144,8192x8192x512,8192x8192x1024,8192x8192x8192}
builds=()
for v in "${vs[@]}"; do
  b=${v%_off}
  [[ " ${builds[*]} " == *" $b "* ]] || builds+=("$b")
done
for v in "${builds[@]}"; do
  inc=(-Iinclude)
  [[ -d gen/exp/$v/include ]] && inc=(-Igen/exp/$v/include)
  (
    timeout 300 nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a "${inc[@]}" \
      -Iexamples/gemm -DGEMM_ELEMENT=bf16 -Xptxas -v gen/exp/$v.ws.cu examples/gemm/main.cu \
      -o build/exp/$v -lcublas >"$out/build-$v.log" 2>&1
    echo "build $v rc=$?"
  ) &
done
wait
grep -H -E "spill|warning|\(C7" "$out"/build-*.log | grep -v " 0 bytes spill stores, 0 bytes spill loads" | head
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
for rep in 1 2; do
  for v in "${vs[@]}"; do
    b=${v%_off}
    envv=()
    [[ $v == *_off ]] && envv=(env TAWA_SPLIT_TAIL=off)
    [[ -x build/exp/$b ]] || continue
    timeout 120 "${envv[@]}" build/exp/$b --label $v --shapes "$shapes" --time \
      --pairs ${PAIRS:-30} --json "$out/$v-$rep.json" 2>&1 | tail -n 8
  done
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader
python3 - "$out" "${vs[@]}" <<'PY'
import glob, json, math, sys
out, vs = sys.argv[1], sys.argv[2:]
rows = {}
for v in vs:
    for f in sorted(glob.glob(f"{out}/{v}-*.json")):
        for r in json.load(open(f))["results"]:
            ratio = r["ratio"] if r["pass"] else float("nan")
            rows.setdefault(v, {}).setdefault(r["shape"], []).append(ratio)
shapes = sorted({s for v in rows for s in rows[v]}, key=lambda s: [int(x) for x in s.split("x")])
print("variant".ljust(10) + "".join(s.rjust(18) for s in shapes) + "   geomean")
for v in vs:
    if v not in rows:
        print(v, "no results")
        continue
    cells, logs = [], []
    for s in shapes:
        rs = rows[v].get(s, [])
        cells.append("/".join(f"{x:.3f}" for x in rs))
        logs += [math.log(x) for x in rs if x == x]
    mean = f"   {math.exp(sum(logs) / len(logs)):.3f}" if logs else ""
    print(v.ljust(10) + "".join(c.rjust(18) for c in cells) + mean)
PY
