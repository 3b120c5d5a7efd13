#!/usr/bin/env bash
# Why 4096 x 16 x 4096 ran slower with edge boxes: the bf16 NT GEMM
# (GEN/gemm.ws.cu) with edge boxes off, on, and on in a copy of the file
# whose kernels zero their shared memory before the barriers are set up
# (`zinit`; rows that edge boxes never load then hold zeros instead of
# whatever shared memory held), three rounds, plus the host time of one
# tensor-map encoding. The table is printed last; everything lands in OUT.
#   bash results/h100/edge-boxes/zinit.sh OUT GEN
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: zinit.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" build/zinit
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm
  -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt -Xptxas -v)
cp "$gen/gemm.ws.cu" build/zinit/base.ws.cu
sed '/shared_storage<.*>(tawa_smem);/a { for (int i = threadIdx.x; i < int(sizeof(smem) / 16); i += blockDim.x) reinterpret_cast<uint4 *>(\&smem)[i] = make_uint4(0, 0, 0, 0); __syncthreads(); }' \
  "$gen/gemm.ws.cu" >build/zinit/zinit.ws.cu
grep -c 'make_uint4(0, 0, 0, 0)' build/zinit/zinit.ws.cu
sha256sum build/zinit/*.ws.cu >"$out/sha256.txt"
for v in base zinit; do
  nvcc "${flags[@]}" "build/zinit/$v.ws.cu" examples/gemm/main.cu -o "build/zinit/$v" -lcublas \
    >"$out/build-$v.log" 2>&1 || echo "BUILD FAIL $v" &
done
nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
  results/h100/edge-boxes/encode-cost.cu -o build/zinit/encode-cost >"$out/build-encode.log" 2>&1 &
wait
build/zinit/encode-cost | tee "$out/encode-cost.txt"
shapes=${SHAPES:-4096x16x4096,4096x64x4096,16x4096x4096,64x4096x4096,160x4096x4096,192x4096x4096}
for round in 1 2 3; do
  for v in off on zinit; do
    bin=base env=()
    [[ $v == off ]] && env=(TAWA_EDGE_BOXES=off)
    [[ $v == zinit ]] && bin=zinit
    env "${env[@]}" timeout 120 "build/zinit/$bin" --label "$v" --shapes "$shapes" --time \
      --pairs 20 --warmup 3 --json "$out/$v-$round.json" >"$out/$v-$round.log" 2>&1 ||
      echo "RUN FAIL $v $round"
  done
done
python3 - "$out" <<'PY' | tee "$out/table.txt"
import glob, json, os, statistics, sys
cells = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*-[0-9].json"))):
    v = os.path.basename(path)[:-5].rsplit("-", 1)[0]
    for r in json.load(open(path))["results"]:
        cells.setdefault(r["shape"], {}).setdefault(v, []).append((r["ms"] * 1e3, r["ratio"]))
print("median of three rounds: us (ratio to cuBLAS in the same process)")
print(f"{'shape':15} " + " ".join(f"{v:>14}" for v in ["off", "on", "zinit"]))
for s, m in sorted(cells.items()):
    print(f"{s:15} " + " ".join(
        f"{statistics.median(t for t, _ in m[v]):6.1f} ({statistics.median(x for _, x in m[v]):.2f})"
        if v in m else f"{'':>14}" for v in ["off", "on", "zinit"]))
PY
