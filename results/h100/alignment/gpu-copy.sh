#!/usr/bin/env bash
# The odd-pitch copy (tawa/runtime/operand_copy.cuh) measured: the rewritten
# bf16 GEMMs of the NT and TN layouts and the fp8 GEMMs, each shape checked
# and timed against cuBLAS (cuBLASLt for fp8) in one process, with the copy
# off (TAWA_PITCH_COPY=off), as the launcher decides (default) and forced.
#   bash results/h100/alignment/gpu-copy.sh OUT [GEN_DIR]
# GEN_DIR (default gen/sweep) as bench/sweep-rewrite.sh writes it.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu-copy.sh OUT [GEN_DIR]}
gen=${2:-gen/sweep}
mkdir -p "$out" build/alignment
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude)
nvcc "${flags[@]}" -Iexamples/gemm -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt "$gen/gemm.ws.cu" \
  examples/gemm/main.cu -o build/alignment/nt -lcublas >"$out/build-nt.log" 2>&1 &
nvcc "${flags[@]}" -Iexamples/gemm-layouts -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=tn "$gen/gemm-tn.ws.cu" \
  examples/gemm/main.cu -o build/alignment/tn -lcublas >"$out/build-tn.log" 2>&1 &
nvcc "${flags[@]}" -Iexamples/gemm-fp8 "$gen/gemm_fp8.ws.cu" examples/gemm-fp8/main.cu \
  -o build/alignment/fp8 -lcublas -lcublasLt -lcuda >"$out/build-fp8.log" 2>&1 &
wait
tail -n 3 "$out"/build-*.log
dense=${DENSE:-3000x3000x3000,5000x5000x5000,3000x5000x7000,2000x2000x2008,10000x10000x10008,1009x1013x1019,777x1555x2333,2003x3001x4001,4093x4091x4096,1000x1000x1000}
fp8=${FP8:-10000x10000x10000,5008x5008x5008,3008x3008x3008,4096x4096x4096}
for mode in off default force; do
  env=()
  [[ $mode != default ]] && env=(TAWA_PITCH_COPY=$mode)
  for l in nt tn; do
    env "${env[@]}" build/alignment/$l --label "$l-$mode" --shapes "$dense" --time --pairs 20 \
      --warmup 3 --json "$out/$l-$mode.json" >"$out/$l-$mode.log" 2>&1
  done
  env "${env[@]}" build/alignment/fp8 --label "fp8-$mode" --shapes "$fp8" --time \
    --json "$out/fp8-$mode.json" >"$out/fp8-$mode.log" 2>&1
done
grep -h "FAIL" "$out"/*.log
python3 - "$out" <<'PY'
import glob, json, os, sys
rows = {}
for path in glob.glob(os.path.join(sys.argv[1], "*.json")):
    doc = json.load(open(path))
    label = os.path.basename(path)[:-5]
    kind, mode = label.rsplit("-", 1)
    for r in doc["results"] if isinstance(doc, dict) else doc:
        key = (kind + ("-" + r["gemm"] if "gemm" in r else ""), r["shape"])
        rows.setdefault(key, {})[mode] = r.get("ratio")
print(f"{'gemm':24} {'shape':20} {'off':>6} {'default':>8} {'force':>6}")
for (k, s), m in sorted(rows.items()):
    cells = [f"{m[x]:.3f}" if m.get(x) else "-" for x in ("off", "default", "force")]
    print(f"{k:24} {s:20} {cells[0]:>6} {cells[1]:>8} {cells[2]:>6}")
PY
