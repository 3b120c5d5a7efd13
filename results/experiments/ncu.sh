#!/usr/bin/env bash
# Kernel names, launch shapes and speed-of-light of ours and of cuBLAS under
# ncu, from the check run of one shape (no timing loop). ncu locks the clocks
# to base unless CLOCK=none (then the card runs at its own clocks).
# usage: BIN=VARIANT [CLOCK=none] bash results/experiments/ncu.sh OUT_DIR
#   (build/exp/VARIANT from run.sh)
set -uo pipefail
out=${1:?}; mkdir -p "$out"
bin=build/exp/${BIN:-stsm}
for s in 4096x4096x4096 8192x8192x512 6144x6144x6144 8192x8192x8192; do
  echo "=== $s"
  timeout 150 ncu --clock-control ${CLOCK:-base} --section SpeedOfLight --section LaunchStats --metrics sm__cycles_elapsed.avg.per_second,lts__t_sector_hit_rate.pct \
    -k regex:'gemm|sm90|cutlass|nvjet' -c 2 $bin --label x --shapes $s >"$out/ncu-$s.txt" 2>&1
  grep -E "^  [a-zA-Z_].*\(|Duration|Grid Size|Block Size|Cluster|Memory Throughput|Compute \(SM\)|gmma|per_second|hit_rate|Registers|DRAM Through|L2 Cache Through" "$out/ncu-$s.txt" | cut -c1-150
done
