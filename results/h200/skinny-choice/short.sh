#!/usr/bin/env bash
# Skinny launches three ways, bf16 NT, each checked and timed against cuBLAS
# in its own process: the rewritten example as it is (base); the same with
# the ping-pong twins of the narrow kernels never run (nopp: the launcher's
# `C.rows > 64 ?` made `false ?`, so the cooperative narrow kernels and their
# split tail run); and kernels of 64-row tiles written in the tile vocabulary
# (make-short.sh writes them: one consumer warpgroup, narrow(off)).
#   bash results/h200/skinny-choice/short.sh OUT [GEN_DIR]
# GEN_DIR (default gen/skinny): gemm.ws.cu, gemm-nopp.ws.cu, short-64x{64,128,256}.ws.cu.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: short.sh OUT [GEN_DIR]}
gen=${2:-gen/skinny}
mkdir -p "$out" build/short
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt)
kernels="base:gemm nopp:gemm-nopp s64x64:short-64x64 s64x128:short-64x128 s64x256:short-64x256"
for kv in $kernels; do
  nvcc "${flags[@]}" -Xptxas -v "$gen/${kv#*:}.ws.cu" examples/gemm/main.cu -o build/short/${kv%%:*} -lcublas \
    >"$out/build-${kv%%:*}.log" 2>&1 &
done
wait
grep -lE "spill (stores|loads)" "$out"/build-*.log | xargs -r grep -HE "[1-9][0-9]* bytes spill" | head
shapes=${SHAPES:-16x4096x4096,32x4096x4096,64x4096x4096,128x4096x4096,192x4096x4096,256x4096x4096,32x11008x4096,64x4096x11008,16x8192x8192,4096x16x4096,4096x64x4096,4096x128x4096,4096x192x4096,8192x256x8192,1000x1000x1000,1536x1536x1536}
for kv in $kernels; do
  k=${kv%%:*}
  timeout 150 build/short/$k --label "$k" --shapes "$shapes" --time --pairs ${PAIRS:-30} --warmup 3 \
    --json "$out/$k.json" >"$out/$k.log" 2>&1
done
grep -h "FAIL" "$out"/*.log
python3 - "$out" "$kernels" <<'PY' | tee "$out/table.txt"
import json, os, sys
names = [kv.split(":")[0] for kv in sys.argv[2].split()]
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
print("ours and cuBLAS (median of the runs), us")
print(f"{'shape':16} " + " ".join(f"{k:>8}" for k in names) + f" {'cuBLAS':>8}")
for s in sorted(rows, key=lambda s: [int(x) for x in s.split("x")]):
    cells = [f"{rows[s][k]:8.1f}" if rows[s].get(k) else f"{'-':>8}" for k in names]
    b = sorted(base.get(s, [0]))
    print(f"{s:16} " + " ".join(cells) + f" {b[len(b)//2]:8.1f}")
PY
tar -C "$(dirname "$out")" -czf "$out.tar.gz" "$(basename "$out")" && rm -rf "$out"
