#!/usr/bin/env bash
# DRAM traffic of the launcher's kernels against cuBLAS's on the small-M,
# long-K shapes that stay below 0.9 of cuBLAS: every kernel one check of
# each shape launches, under Nsight Compute (time, DRAM bytes read, grid).
#   GEN=gen/ncu14 bash results/h200/weak-shapes/ncu-traffic.sh OUT
# GEN: examples/gemm/gemm.cu rewritten by the tool (gemm.ws.cu).
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: ncu-traffic.sh OUT}
gen=${GEN:-gen/ncu14}
mkdir -p "$out" build/weak
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm \
  -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt "$gen/gemm.ws.cu" examples/gemm/main.cu \
  -o build/weak/nt-ncu -lcublas -lcublasLt -lcuda >"$out/build.log" 2>&1 || exit 1
for s in ${SHAPES:-200x4096x16384 80x4096x4096 160x8192x8192 128x4096x4096}; do
  ncu --csv --print-units base --metrics gpu__time_duration.sum,dram__bytes_read.sum,launch__grid_size \
    build/weak/nt-ncu --shapes "$s" >"$out/$s.csv" 2>"$out/$s.err"
done
python3 - "$out" <<'PY' | tee "$out/table.txt"
import csv, glob, io, os, sys
out = sys.argv[1]
print(f"{'shape':16} {'kernel':58} {'grid':>6} {'us':>8} {'DRAM MB':>9}")
for f in sorted(glob.glob(os.path.join(out, "*.csv"))):
    text = open(f).read()
    start = text.find('"ID"')
    if start < 0:
        continue
    rows = {}
    for r in csv.DictReader(io.StringIO(text[start:])):
        k = (r["ID"], r["Kernel Name"])
        rows.setdefault(k, {})[r["Metric Name"]] = r["Metric Value"].replace(",", "")
    for (i, name), m in rows.items():
        us = float(m.get("gpu__time_duration.sum", "nan")) / 1000
        mb = float(m.get("dram__bytes_read.sum", "nan")) / 1e6
        print(f"{os.path.basename(f)[:-4]:16} {name[:58]:58} {m.get('launch__grid_size','?'):>6} {us:8.1f} {mb:9.1f}")
PY
