#!/usr/bin/env bash
# Whether A boxes that lie partly past A's last row slow the narrow kernels:
# `base` is GEN/gemm.ws.cu as rewritten, `padA` the same file with A's
# tensor map made over a zero-padded copy of A whose rows are rounded up to
# the 128-row tile (padded_rows.h, made once per input set before timing),
# so that no A box of the launch is out of bounds: an experiment, not a fix. Each shape is checked, then timed against cuBLAS.
#   bash results/h100/few-rows/oob.sh OUT GEN
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: oob.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" build/oob
flags=(-I. -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm
  -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt -lineinfo)
cp "$gen/gemm.ws.cu" build/oob/base.ws.cu
{ echo '#include "tawa/tile.h"'; echo '#include "results/h100/few-rows/padded_rows.h"'; sed 's/make_tensor_map(&A_tensor_map, A_aligned, 128, 64)/make_tensor_map(\&A_tensor_map, padded_rows(A_aligned), 128, 64)/' "$gen/gemm.ws.cu"; } >build/oob/padA.ws.cu
grep -c 'padded_rows(A_aligned)' build/oob/padA.ws.cu
sha256sum build/oob/*.ws.cu >"$out/sha256.txt"
for v in base padA; do
  nvcc "${flags[@]}" "build/oob/$v.ws.cu" examples/gemm/main.cu -o "build/oob/$v" -lcublas \
    >"$out/build-$v.log" 2>&1 || echo "BUILD FAIL $v" &
done
wait
shapes=${SHAPES:-128x4096x4096,160x4096x4096,192x4096x4096,224x4096x4096,256x4096x4096,320x4096x4096,1000x1000x1000,2056x2056x2056}
for v in base padA; do
  for n in default 128; do
    env TAWA_NARROW=$n timeout 120 "build/oob/$v" --label "$v-$n" --shapes "$shapes" --time \
      --pairs 20 --warmup 3 --json "$out/$v-$n.json" >"$out/$v-$n.log" 2>&1 || echo "RUN FAIL $v $n"
  done
done
python3 - "$out" <<'PY' | tee "$out/table.txt"
import glob, json, os, sys
rows, cols = {}, []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    v = os.path.basename(path)[:-5]
    cols.append(v)
    for r in json.load(open(path))["results"]:
        rows.setdefault(r["shape"], {})[v] = f"{r['ratio']:.2f} {1e3 * r['ms']:.1f}" if r.get("ratio") else "FAIL"
print("ratio to cuBLAS and time in us")
print(f"{'shape':15} " + " ".join(f"{c:>12}" for c in cols))
for s, m in sorted(rows.items()):
    print(f"{s:15} " + " ".join(f"{m.get(c, ''):>12}" for c in cols))
PY
