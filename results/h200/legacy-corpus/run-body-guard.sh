#!/usr/bin/env bash
# One GPU call: check, time and sanitize the kernels of gen/bg.
set -u
JOBS=8 bash results/h200/legacy-corpus/gpu.sh $OUT/c gen/bg > $OUT/gpu.log 2>&1
tail -n 20 $OUT/c/summary.txt
ONLY="wmma_blog_guarded_scratch_bf16 p10_wmma_blog_colmajor_half_scratch p13_wmma_blog_scratch_64x2_half" bash results/h200/legacy-corpus/time.sh $OUT/t > $OUT/time.log 2>&1
tail -n 8 $OUT/time.log
for x in wmma_blog_guarded_scratch_bf16 p10_wmma_blog_colmajor_half_scratch; do
  for tool in memcheck racecheck synccheck; do
    for s in "256 512 384" "1024 1024 1024"; do
      compute-sanitizer --tool $tool build/legacy-corpus/$x.new $s /tmp/o.f32 > $OUT/san.$x.$tool.${s// /x}.log 2>&1
      echo "$x $tool ${s// /x} rc=$? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' $OUT/san.$x.$tool.${s// /x}.log | tr '\n' ' ')"
    done
  done
done | tee $OUT/sanitizer.txt
