#!/usr/bin/env bash
# Decode-like launches (16-64 rows) with narrow CTA tiles: the example's rewrite
# (base) against kernels of 64 x {16,32,64} tiles written in the tile
# vocabulary (one consumer warpgroup, narrow(off); make.sh writes them), each
# run with the launcher's split tail and with TAWA_SPLIT_TAIL=off, bf16 NT,
# checked and timed against cuBLAS in the same process.
#   bash results/h200/decode/gpu.sh OUT [GEN_DIR]
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT [GEN_DIR]}
gen=${2:-gen/decode}
mkdir -p "$out" build/decode
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt)
kernels=${KERNELS:-"base:gemm t16:short-64x16s16 t32:short-64x32s16 t32s8:short-64x32s8 t64:short-64x64s12"}
for kv in $kernels; do
  nvcc "${flags[@]}" -Xptxas -v "$gen/${kv#*:}.ws.cu" examples/gemm/main.cu -o build/decode/${kv%%:*} -lcublas \
    >"$out/build-${kv%%:*}.log" 2>&1 &
done
wait
grep -HE "[1-9][0-9]* bytes spill|warning" "$out"/build-*.log | head
shapes=${SHAPES:-16x4096x1024,16x4096x4096,32x4096x4096,64x4096x4096,64x2048x2048,64x1024x4096,16x8192x8192,64x8192x8192,64x4096x11008,32x11008x4096,16x14336x4096,16x28672x8192}
names=""
for kv in $kernels; do
  k=${kv%%:*}
  for mode in split nosplit; do
    env=(); [ $mode = nosplit ] && env=(TAWA_SPLIT_TAIL=off)
    env "${env[@]}" timeout 200 build/decode/$k --label "$k-$mode" --shapes "$shapes" --time --pairs ${PAIRS:-20} \
      --warmup 3 --json "$out/$k-$mode.json" >"$out/$k-$mode.log" 2>&1
    names="$names $k-$mode"
  done
done
grep -h "FAIL" "$out"/*.log
python3 - "$out" "$names" <<'PY' | tee "$out/table.txt"
import json, os, sys
names = sys.argv[2].split()
rows, base = {}, {}
for k in names:
    path = os.path.join(sys.argv[1], k + ".json")
    if not os.path.exists(path):
        continue
    for r in json.load(open(path))["results"]:
        ok = r["pass"] and r.get("ms")
        rows.setdefault(r["shape"], {})[k] = r["ms"] * 1e3 if ok else None
        if ok:
            base.setdefault(r["shape"], []).append(r["cublas_ms"] * 1e3)
print("ours and cuBLAS (median of each process's runs; cuBLAS: median over processes), us")
print(f"{'shape':14} " + " ".join(f"{k:>11}" for k in names) + f" {'cuBLAS':>8}")
for s in sorted(rows, key=lambda s: [int(x) for x in s.split("x")]):
    cells = [f"{rows[s][k]:11.1f}" if rows[s].get(k) else f"{'-':>11}" for k in names]
    b = sorted(base.get(s, [0]))
    print(f"{s:14} " + " ".join(cells) + f" {b[len(b)//2]:8.1f}")
PY
tar -C "$(dirname "$out")" -czf "$out.tar.gz" "$(basename "$out")" && rm -rf "$out"
