#!/usr/bin/env bash
# Times the rewrites of gen/a208 (the examples' NT and TT GEMMs rewritten by
# the tool with 208-column kernels) against gen/a144 (the same by the tool
# of a1a77b4, with its include/ in gen/a144/include), and runs the
# sanitizers on the 208-column kernels (forced), ragged shapes.
#   bash results/h200/fixed-cost/width208/check.sh OUT
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." && pwd)
cd "$repo"
out=$1
mkdir -p "$out"
SHAPES=1000x1000x1000,1536x1536x1536,1700x1750x999,1792x1792x1792,1792x1792x1800,1792x1792x8192,2176x2176x2176,2304x2304x512,2304x2304x2304,2560x2560x2560,2560x2560x2600,4096x4096x4096 \
  OLD_GEN=gen/a144 CHOICES="old default" PAIRS=20 \
  bash results/h200/weak-shapes/gpu.sh "$out/time" gen/a208 nt tt > "$out/time.log" 2>&1
{
  for l in nt tt; do
    for run in "TAWA_NARROW=208:memcheck" "TAWA_NARROW=208 TAWA_CLUSTER=force:memcheck" \
      "TAWA_NARROW=208:racecheck" "TAWA_NARROW=208:synccheck"; do
      env=${run%:*} tool=${run#*:}
      echo "\$ $env compute-sanitizer --tool $tool build/weak/$l --label s --shapes 300x1000x520,129x2000x72"
      env $env timeout 90 compute-sanitizer --tool $tool build/weak/$l --label s \
        --shapes 300x1000x520,129x2000x72 2>&1 | grep -v "^=========$" | tail -4
    done
  done
} > "$out/sanitizer.txt" 2>&1
(cd gen/a208 && sha256sum ./*.ws.cu) > "$out/sha256.txt"
grep -c PASS "$out/sanitizer.txt"; grep "ERROR SUMMARY" "$out/sanitizer.txt" | sort | uniq -c
tail -30 "$out/time.log"
