#!/usr/bin/env bash
# The few-rows twins (tawa/TileShape.h, NarrowTiles::FewRows) measured: the
# sweep's parts (bench/gemm-sweep.sh) on decode-like shapes of at most 64
# rows, once with the rewrite before them (OLD_GEN) and once with it
# (NEW_GEN), each part checked and timed against the vendor library in its
# own process; then, with CHECKS=1, ragged few-row shapes checked (no
# timing) with NEW_GEN's builds and compute-sanitizer (memcheck, racecheck,
# synccheck) on two of them. RAGGED overrides the ragged shapes.
#   bash results/h200/few-rows/gpu.sh OUT OLD_GEN NEW_GEN PART...
# OLD_GEN and NEW_GEN as bench/sweep-rewrite.sh writes them. Results are
# packed into OUT.tar.gz; the table (ours / baseline, before and after) is
# printed last.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT OLD_GEN NEW_GEN PART...}
old=${2:?} new=${3:?}
shift 3
mkdir -p "$out"
export SHAPES=${SHAPES:-16x4096x4096,48x4096x4096,16x8192x8192,32x11008x4096,64x4096x11008,64x14336x4096,32x4096x14336,64x2048x2048,16x28672x8192}
for part in "$@"; do
  for g in old new; do
    gen=$old
    [[ $g == new ]] && gen=$new
    bash bench/gemm-sweep.sh "$gen" "$out/$g" "$part" >"$out/$g-$part.log" 2>&1 ||
      echo "few-rows: $g $part failed; see $g-$part.log"
  done
done
if [[ ${CHECKS:-0} == 1 ]]; then
  ragged=${RAGGED:-1x4096x4096,7x1000x333,33x5000x3001,64x128x64,50x2048x8192,17x4000x1000,64x64x4096}
  for b in build/sweep-nt/gemm-check-bf16 build/sweep-nn/gemm-check-bf16-nn \
    build/sweep-tn/gemm-check-bf16-tn build/sweep-tt/gemm-check-fp16-tt; do
    [[ -x $b ]] && "$b" --label "$(basename "$b")" --shapes "$ragged" 2>&1 | tee -a "$out/ragged.log"
  done
  [[ -x build/sweep-epilogue/check ]] &&
    build/sweep-epilogue/check --label epilogue --shapes "$ragged" 2>&1 | tee -a "$out/ragged.log"
  [[ -x build/sweep-fp8/check ]] &&
    build/sweep-fp8/check --label fp8 --shapes 16x1008x3008,64x4096x4096,48x2000x512 2>&1 | tee -a "$out/ragged.log"
  for tool in memcheck racecheck synccheck; do
    for s in 33x1000x3001 16x4096x1024; do
      timeout 300 compute-sanitizer --tool $tool --error-exitcode 3 build/sweep-nt/gemm-check-bf16 \
        --label san --shapes $s >"$out/sanitizer-$tool-$s.log" 2>&1
      echo "sanitizer $tool $s: exit $? $(grep -c 'ERROR SUMMARY: 0 errors' "$out/sanitizer-$tool-$s.log") clean summary"
    done
  done | tee "$out/sanitizer.txt"
  grep -c PASS "$out/ragged.log"; grep -E "FAIL|error" "$out/ragged.log" | head
fi
python3 - "$out" <<'PY' | tee "$out/table.txt"
import json, os, sys
rows = {}
for g in ("old", "new"):
    path = os.path.join(sys.argv[1], g, "sweep.json")
    if not os.path.exists(path):
        continue
    for r in json.load(open(path))["rows"]:
        rows.setdefault((r["variant"], r["shape"]), {})[g] = r["ratio"]
print(f"{'variant':22} {'shape':16} {'before':>7} {'after':>7}")
for (v, s), m in sorted(rows.items(), key=lambda kv: (kv[0][0], [int(x) for x in kv[0][1].split('x')])):
    cells = [f"{m[g]:7.3f}" if m.get(g) else f"{'-':>7}" for g in ("old", "new")]
    print(f"{v:22} {s:16} {cells[0]} {cells[1]}")
PY
tar -C "$(dirname "$out")" -czf "$out.tar.gz" "$(basename "$out")" && rm -rf "$out"
