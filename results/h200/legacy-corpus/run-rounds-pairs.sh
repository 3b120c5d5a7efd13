#!/usr/bin/env bash
# One GPU call: check, time and sanitize the kernels of gen/b2.
set -u
JOBS=8 bash results/h200/legacy-corpus/gpu.sh $OUT/c gen/b2 > $OUT/gpu.log 2>&1
tail -n 24 $OUT/c/summary.txt
ONLY="coarsened_rows_checked_bf16 pair_reads_bf16 p2_half2_smem_dot_half p2_pmpp_coarsened_half" bash results/h200/legacy-corpus/time.sh $OUT/t > $OUT/time.log 2>&1
tail -n 8 $OUT/time.log
for x in coarsened_rows_checked_bf16 pair_reads_bf16 p2_half2_smem_dot_half p2_pmpp_coarsened_half; do
  for tool in memcheck racecheck synccheck; do
    for s in "384 256 256" "1024 1024 1024"; do
      compute-sanitizer --tool $tool build/legacy-corpus/$x.new $s /tmp/o.f32 > /tmp/san.log 2>&1
      echo "$x $tool ${s// /x} rc=$? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' /tmp/san.log | tr '\n' ' ')"
    done
  done
done | tee $OUT/sanitizer.txt
