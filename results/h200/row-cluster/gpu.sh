#!/usr/bin/env bash
# The few-rows twins over row parts where their tiles fill at most a wave,
# and their cluster twins (README.md): the launcher's choice against the
# run-time overrides TAWA_ROW_CLUSTER=off and TAWA_ROW_PARTS=off, each run
# twice ("R=2" repeats the default), bf16 in every layout, each choice in its
# own process against cuBLAS (weak-shapes/gpu.sh); then the epilogue and fp8
# sweep parts checked and timed on the same shapes, ragged launches checked
# with the cluster twins forced and as chosen, and compute-sanitizer on the
# cluster twins.
#   bash results/h200/row-cluster/gpu.sh OUT GEN_DIR
# GEN_DIR: what bench/sweep-rewrite.sh wrote.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN_DIR}
gen=${2:?}
mkdir -p "$out"
shapes=${SHAPES:-16x4096x4096,48x4096x4096,72x4096x4096,80x4096x4096,96x4096x4096,100x4000x3000,112x4096x4096,120x2560x4096,128x1024x4096,128x2048x4096,128x3072x4096,128x4096x1024,128x4096x2048,128x4096x4096,128x5120x4096,128x4096x16384,144x2048x4096,144x4096x4096,192x2048x4096,192x4096x4096,200x2048x4096,256x1024x4096,256x1536x8192,256x2048x4096,256x2560x4096}
SHAPES=$shapes PAIRS=${PAIRS:-30} \
CHOICES=${CHOICES:-default ROW_CLUSTER=off ROW_PARTS=off R=2 ROW_CLUSTER=off+R=2 ROW_PARTS=off+R=2} \
  bash results/h200/weak-shapes/gpu.sh "$out/time" "$gen" nt tn nn tt > "$out/time.log" 2>&1
# The epilogues and fp8 on the same shapes (fp8: extents multiples of 16).
SHAPES=$shapes PAIRS=10 bash bench/gemm-sweep.sh "$gen" "$out/sweep" epilogue > "$out/sweep.log" 2>&1
fp8=$(tr , '\n' <<<"$shapes" | awk -Fx '$1 % 16 == 0 && $2 % 16 == 0 && $3 % 16 == 0' | paste -sd,)
SHAPES=$fp8 PAIRS=10 bash bench/gemm-sweep.sh "$gen" "$out/sweep-fp8" fp8 >> "$out/sweep.log" 2>&1
# Ragged launches: the cluster twins forced (an odd count of row parts puts
# a cluster's second tile past the grid), then as the launcher chooses.
ragged=65x1000x520,72x777x1000,100x777x1000,128x2000x264,150x1000x520,191x4096x264,200x520x4104,257x1024x1024
for l in nt tn nn tt; do
  env TAWA_ROW_PARTS=force TAWA_NARROW=64 TAWA_ROW_CLUSTER=force timeout 200 build/weak/$l \
    --label "$l-cluster" --shapes "$ragged" >> "$out/ragged.log" 2>&1
  timeout 200 build/weak/$l --label "$l" --shapes "$ragged" >> "$out/ragged.log" 2>&1
done
for tool in memcheck racecheck synccheck; do
  for l in nt nn; do
    for s in 72x1000x520 150x1000x520; do
      env TAWA_ROW_PARTS=force TAWA_NARROW=64 TAWA_ROW_CLUSTER=force timeout 300 \
        compute-sanitizer --tool $tool build/weak/$l --shapes $s 2>&1 | tail -2 >> "$out/sanitizer.txt"
    done
  done
done
echo "ragged: $(grep -c PASS "$out/ragged.log") passed, $(grep -c FAIL "$out/ragged.log") failed"
echo "sanitizer: $(grep -c ' 0 errors\| 0 hazards' "$out/sanitizer.txt") of 12 clean"
echo "sweep: $(grep -c ' PASS ' "$out/sweep.log") passed, $(grep -c ' FAIL ' "$out/sweep.log") failed"
cat "$out/time/table.txt"
