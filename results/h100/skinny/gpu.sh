#!/usr/bin/env bash
# The narrow walks trimmed to the stored matrix's columns
# (tawa::rt::narrow_x_units) measured: the rewritten bf16 GEMMs of the NT and
# TN layouts and the fused epilogues on few-column and other narrow shapes,
# each shape checked, then timed against cuBLAS (cuBLASLt for the epilogues)
# in one process, with the trim off (TAWA_NARROW_TRIM=off) and on.
#   bash results/h100/skinny/gpu.sh OUT [GEN_DIR]
# GEN_DIR (default gen/sweep) as bench/sweep-rewrite.sh writes it. The
# results are packed into OUT.tar.gz; the table is printed last.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT [GEN_DIR]}
gen=${2:-gen/sweep}
mkdir -p "$out" build/skinny
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude)
nvcc "${flags[@]}" -Iexamples/gemm -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt "$gen/gemm.ws.cu" \
  examples/gemm/main.cu -o build/skinny/nt -lcublas >"$out/build-nt.log" 2>&1 &
nvcc "${flags[@]}" -Iexamples/gemm-layouts -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=tn "$gen/gemm-tn.ws.cu" \
  examples/gemm/main.cu -o build/skinny/tn -lcublas >"$out/build-tn.log" 2>&1 &
nvcc "${flags[@]}" -Iexamples/gemm-epilogue "$gen/epilogue.ws.cu" examples/gemm-epilogue/main.cu \
  -o build/skinny/epi -lcublas -lcublasLt -lcuda >"$out/build-epi.log" 2>&1 &
wait
shapes=${SHAPES:-4096x16x4096,4096x64x4096,4096x128x4096,8192x256x8192,16384x512x1024,4096x96x4096,1000x200x4096,16x4096x4096,1024x1024x1024}
for mode in off on; do
  env=()
  [[ $mode == off ]] && env=(TAWA_NARROW_TRIM=off)
  for l in nt tn; do
    env "${env[@]}" build/skinny/$l --label "$l-$mode" --shapes "$shapes" --time --pairs 20 \
      --warmup 3 --json "$out/$l-$mode.json" >"$out/$l-$mode.log" 2>&1
  done
  env "${env[@]}" build/skinny/epi --label "epi-$mode" --shapes "$shapes" --time \
    --json "$out/epi-$mode.json" >"$out/epi-$mode.log" 2>&1
done
grep -h "FAIL" "$out"/*.log
python3 - "$out" <<'PY' | tee "$out/table.txt"
import glob, json, os, sys
rows = {}
for path in glob.glob(os.path.join(sys.argv[1], "*.json")):
    doc = json.load(open(path))
    kind, mode = os.path.basename(path)[:-5].rsplit("-", 1)
    for r in doc["results"] if isinstance(doc, dict) else doc:
        key = (kind + ("-" + r["epilogue"] if "epilogue" in r else ""), r["shape"])
        rows.setdefault(key, {})[mode] = r.get("ratio")
print(f"{'gemm':24} {'shape':18} {'off':>6} {'on':>6}")
for (k, s), m in sorted(rows.items()):
    cells = [f"{m[x]:.3f}" if m.get(x) else "-" for x in ("off", "on")]
    print(f"{k:24} {s:18} {cells[0]:>6} {cells[1]:>6}")
PY
tar -C "$(dirname "$out")" -czf "$out.tar.gz" "$(basename "$out")" && rm -rf "$out"
