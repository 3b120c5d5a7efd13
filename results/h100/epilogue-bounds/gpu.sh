#!/usr/bin/env bash
# The epilogue operand reads of tawa::rt::epilogue_element with the index
# clamped into the matrix and the value masked (include/ with clamped.patch
# applied) against the bounds-checked load (OLD_INCLUDE: a copy of include/
# as committed), in one call: the fused epilogues of
# examples/gemm-epilogue (GEN/epilogue.ws.cu, from results/h100/epilogue/
# rewrite.sh) built against each, checked on small and ragged shapes with the
# new reads, then timed against cuBLAS / cuBLASLt twice each, old and new
# alternating; then results/h100/activations/gpu.sh with the new reads.
#   bash results/h100/epilogue-bounds/gpu.sh OUT GEN OLD_INCLUDE ACT_GEN
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN OLD_INCLUDE ACT_GEN}
gen=${2:?}
old=${3:?}
act=${4:?}
mkdir -p "$out" build/epilogue-bounds
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iexamples/gemm-epilogue)
libs=(-lcublas -lcublasLt -lcuda)
nvcc "${flags[@]}" -I"$old" -Xptxas -v "$gen/epilogue.ws.cu" examples/gemm-epilogue/main.cu \
  -o build/epilogue-bounds/old "${libs[@]}" >"$out/build-old.log" 2>&1 &
nvcc "${flags[@]}" -Iinclude -Xptxas -v "$gen/epilogue.ws.cu" examples/gemm-epilogue/main.cu \
  -o build/epilogue-bounds/new "${libs[@]}" >"$out/build-new.log" 2>&1 &
wait
for v in old new; do
  echo "$v: $(awk '/Compiling entry/ { ref = /_reference/ } !ref' "$out/build-$v.log" |
    grep -cE '[1-9][0-9]* bytes spill') kernels with spills"
done
timeout 120 build/epilogue-bounds/new --label new --shapes 129x257x73,1000x1016x520,256x512x1024,300x4096x200 \
  --json "$out/check-new.json" >"$out/check-new.log" 2>&1 || echo "CHECK FAIL new"
TAWA_NARROW=force timeout 120 build/epilogue-bounds/new --label new-narrow \
  --shapes 129x257x73,1000x1016x520,300x4096x200 --json "$out/check-new-narrow.json" \
  >"$out/check-new-narrow.log" 2>&1 || echo "CHECK FAIL new narrow"
shapes=4096x4096x4096,8192x8192x4096,2048x2048x2048,1000x1016x520,128x4096x4096
for pass in 1 2; do
  for v in old new; do
    timeout 300 build/epilogue-bounds/$v --label "$v-$pass" --time --shapes "$shapes" \
      --json "$out/timed-$v-$pass.json" >"$out/timed-$v-$pass.log" 2>&1 || echo "TIMED FAIL $v $pass"
  done
done
bash results/h100/activations/gpu.sh "$out/activations" "$act" >"$out/activations.log" 2>&1
python3 - "$out" <<'PY' | tee "$out/table.txt"
import json, sys, glob, collections
out = sys.argv[1]
ratio = collections.defaultdict(list)
for f in sorted(glob.glob(out + "/timed-*.json")):
    v = f.split("/timed-")[1].split("-")[0]
    for r in json.load(open(f)):
        ratio[(r["epilogue"], r["shape"], v)].append(r.get("ratio"))
keys = sorted({(g, s) for g, s, _ in ratio})
print(f"{'epilogue':24} {'shape':16} {'old / baseline':>16} {'new / baseline':>16}")
for g, s in keys:
    o = ratio.get((g, s, "old"), [])
    n = ratio.get((g, s, "new"), [])
    fmt = lambda xs: " ".join(f"{x:.3f}" for x in xs if x is not None)
    print(f"{str(g):24} {s:16} {fmt(o):>16} {fmt(n):>16}")
PY
tail -n 20 "$out/activations/table.txt"
