#!/usr/bin/env bash
# The broadcast operands of the fused epilogues read once per column or row of
# a thread (new) against once per element (old), on a Hopper GPU in one call:
#   bash results/h200/epilogue-broadcast/gpu.sh OUT [GEN_DIR]
# GEN_DIR (default gen/epi-ab) holds old/ and new/, each with the
# tawa-rewrite output of examples/gemm-epilogue/epilogue.cu
# (epilogue.ws.cu) and the include/ tree it was made with (README.md);
# BUILD_DIR (default build/epi-ab) holds the two builds.
#   1. the new kernels checked on small and ragged shapes, also with the
#      narrow kernels forced and with the split tail off, and racecheck on
#      one small shape;
#   2. old and new checked and timed against cuBLAS / cuBLASLt, ROUNDS (default
#      2) times each, alternating; the table is printed last.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT [GEN_DIR]}
gen=${2:-gen/epi-ab}
bdir=${BUILD_DIR:-build/epi-ab}
mkdir -p "$out" $bdir
libs=(-lcublas -lcublasLt -lcuda)
rc=0
for v in old new; do
  # a binary newer than its sources is kept (a warm machine keeps build/)
  [[ $bdir/$v -nt $gen/$v/epilogue.ws.cu && -z $(find "$gen/$v/include" \
    -newer $bdir/$v -print -quit) ]] && continue
  nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I"$gen/$v/include" \
    -Iexamples/gemm-epilogue -Xptxas -v "$gen/$v/epilogue.ws.cu" \
    examples/gemm-epilogue/main.cu -o $bdir/$v "${libs[@]}" \
    >"$out/build-$v.log" 2>&1 &
done
wait
for v in old new; do
  [[ -x $bdir/$v ]] || { echo "build $v failed"; tail -5 "$out/build-$v.log"; exit 1; }
done
grep -E "warning|[1-9][0-9]* bytes spill" "$out/build-new.log" | head -5
small=129x257x73,1000x1016x520,256x512x1024,300x4096x200
echo "== new: checks"
timeout 120 $bdir/new --label new --shapes "$small" --json "$out/new-small.json" \
  2>&1 | tee "$out/new-small.log" || rc=1
TAWA_NARROW=force timeout 120 $bdir/new --label new-narrow --shapes "$small" \
  --json "$out/new-narrow.json" 2>&1 | tee "$out/new-narrow.log" || rc=1
TAWA_SPLIT_TAIL=off TAWA_NARROW=off timeout 120 $bdir/new --label new-whole \
  --shapes "$small" --json "$out/new-whole.json" 2>&1 | tee "$out/new-whole.log" || rc=1
echo "== racecheck"
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 3 $bdir/new \
  --label new --shapes 384x768x320 2>&1 | tail -3 | tee "$out/racecheck.log" || rc=1
shapes=${TIME_SHAPES:-8192x8192x64,8192x8192x256,4096x4096x128,16384x512x1024,4096x4096x4096,8192x8192x4096,128x4096x4096,192x4096x4096,4096x64x4096,16x4096x4096}
for round in $(seq "${ROUNDS:-2}"); do
  for v in old new; do
    echo "== timed $v round $round"
    timeout 200 $bdir/$v --label "$v" --time --shapes "$shapes" \
      --json "$out/timed-$v-$round.json" >"$out/timed-$v-$round.log" 2>&1 || rc=1
    tail -2 "$out/timed-$v-$round.log"
  done
done
python3 - "$out" <<'PY'
import glob, json, os, sys, statistics
out = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(out, "timed-*-*.json"))):
    v = os.path.basename(f).split("-")[1]
    for r in json.load(open(f)):
        rows.setdefault((r["epilogue"], r["shape"]), {}).setdefault(v, []).append(r)
table = []
print(f"{'epilogue':14} {'shape':16} {'old us':>8} {'new us':>8} {'new/old':>8} {'old/base':>8} {'new/base':>8} pass")
for (e, s), d in sorted(rows.items()):
    def med(v, k):
        return statistics.median(r[k] for r in d.get(v, [])) if d.get(v) else float("nan")
    ok = all(r.get("pass") for v in d for r in d[v])
    o, n = 1e3 * med("old", "ms"), 1e3 * med("new", "ms")
    ro, rn = med("old", "ratio"), med("new", "ratio")
    table.append(dict(epilogue=e, shape=s, old_us=o, new_us=n, old_ratio=ro, new_ratio=rn, passed=ok))
    print(f"{e:14} {s:16} {o:8.1f} {n:8.1f} {o / n:8.3f} {ro:8.3f} {rn:8.3f} {ok}")
json.dump(table, open(os.path.join(out, "table.json"), "w"), indent=1)
PY
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out"
exit $rc
