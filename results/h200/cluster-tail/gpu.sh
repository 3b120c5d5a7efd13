#!/usr/bin/env bash
# The split tail in cluster kernels, on a Hopper GPU: with FULL=1 the whole
# dense sweep (bench/gemm-sweep.sh, every layout in bf16 and fp16, checked
# then timed against cuBLAS), then shapes whose rows are an odd number of 16 bytes apart
# (so the launcher runs the cluster twins) with the split tail on and off
# (TAWA_SPLIT_TAIL=off), in processes of their own.
#
# usage: bash results/h200/cluster-tail/gpu.sh GEN_DIR OUT_DIR
#   GEN_DIR  what bench/sweep-rewrite.sh wrote (default gen/sweep)
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
gen=${1:-gen/sweep}
out=${2:?usage: gpu.sh GEN_DIR OUT_DIR}
mkdir -p "$out"
cd "$repo"
rc=0
if [[ ${FULL:-0} == 1 ]]; then
  bash bench/gemm-sweep.sh "$gen" "$out/sweep" dense-nt dense-nn dense-tn dense-tt || rc=1
fi
odd=${ODD_SHAPES:-5000x5000x5000,3000x5000x7000,2840x4104x3000,5000x3000x5000,1000x1000x1000,2200x2200x2200}
for mode in default off; do
  if [[ $mode == off ]]; then export TAWA_SPLIT_TAIL=off; else unset TAWA_SPLIT_TAIL; fi
  SHAPES=$odd bash bench/gemm-sweep.sh "$gen" "$out/odd-$mode" dense-nt dense-tn || rc=1
done
unset TAWA_SPLIT_TAIL
python3 - "$out" <<'PY'
import json, sys, os
out = sys.argv[1]
def rows(d):
    p = os.path.join(out, d, "sweep.json")
    if not os.path.exists(p):
        return {}
    data = json.load(open(p))
    return {(r["variant"], r["shape"]): r for r in data}
on, off = rows("odd-default"), rows("odd-off")
print("variant   shape              split/cuBLAS  off/cuBLAS  split/off")
for k in sorted(on):
    if k in off:
        a, b = on[k]["ratio"], off[k]["ratio"]
        print(f"{k[0]:9} {k[1]:18} {a:12.3f} {b:11.3f} {on[k]['tflops'] / off[k]['tflops']:10.3f}")
PY
exit $rc
