#!/usr/bin/env bash
# Times the examples' NT and TT GEMMs rewritten with cluster twins of the
# 64- and 128-column narrow kernels (GEN) against an earlier rewrite (OLD,
# with its include/), on operand rows an odd number of 16 bytes apart and
# aligned, each with the launcher's choice, the twins off and forced; then
# runs the sanitizers on the forced twins, ragged shapes.
#   bash results/h200/medium-clusters/check.sh OUT GEN OLD
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?} gen=${2:?} old=${3:?}
mkdir -p "$out"
SHAPES=${SHAPES:-1000x1000x1000,1000x1000x4000,776x776x776,1160x1160x1160,1400x1400x1400,600x1800x1000,2000x2000x2008,1008x1008x1008,1024x1024x4096,1152x1152x1152,1536x1536x1536} \
  OLD_GEN=$old CHOICES=${CHOICES:-"old default CLUSTER=off CLUSTER=force"} PAIRS=${PAIRS:-20} \
  bash results/h200/weak-shapes/gpu.sh "$out/time" "$gen" nt tt > "$out/time.log" 2>&1
{
  for l in nt tt; do
    for run in "TAWA_NARROW=64 TAWA_CLUSTER=force:memcheck" "TAWA_NARROW=128 TAWA_CLUSTER=force:memcheck" \
      "TAWA_NARROW=64 TAWA_CLUSTER=force:racecheck" "TAWA_NARROW=128 TAWA_CLUSTER=force:synccheck"; do
      env=${run%:*} tool=${run#*:}
      echo "\$ $env compute-sanitizer --tool $tool build/weak/$l --label s --shapes 300x1000x520,129x2000x72"
      env $env timeout 90 compute-sanitizer --tool $tool build/weak/$l --label s \
        --shapes 300x1000x520,129x2000x72 2>&1 | grep -v "^=========$" | tail -4
    done
  done
} > "$out/sanitizer.txt" 2>&1
(cd "$gen" && sha256sum ./*.ws.cu) > "$out/sha256.txt"
grep -c PASS "$out/sanitizer.txt"; grep "ERROR SUMMARY" "$out/sanitizer.txt" | sort | uniq -c
tail -32 "$out/time.log"
