#!/usr/bin/env bash
# One GPU call: check, time and sanitize the split-K probes of gen/splitk (p2_splitk, p30).
# gen/splitk is written on the build machine:
#   mkdir -p gen/splitk && python3 results/h200/probes/untested/gen_mains.py gen/splitk
#   for x in p2_splitk_atomic_half p30_regblock_splitk_atomic_bf16; do
#     cp results/h200/probes/untested/$x.cu gen/splitk/
#     build/tool/tawa-rewrite/tawa-rewrite gen/splitk/$x.cu -o gen/splitk/$x.ws.cu \
#       -- --cuda-gpu-arch=sm_90a -Iinclude; done
#   cp results/h200/probes/untested/shapes.sh results/h200/legacy-corpus/compare.py \
#      results/h200/legacy-corpus/drivers/driver.h gen/splitk/
# then on the GPU machine: OUT=DIR bash results/h200/probes/untested/run-splitk.sh
set -u
KS="p2_splitk_atomic_half p30_regblock_splitk_atomic_bf16"
find gen/splitk -name '*_main.cu' | grep -v -e p2_splitk -e p30_ | xargs rm -f
JOBS=8 bash results/h200/legacy-corpus/gpu.sh $OUT/c gen/splitk > $OUT/gpu.log 2>&1
ONLY="$KS" bash results/h200/legacy-corpus/time.sh $OUT/t > $OUT/time.log 2>&1
for x in $KS; do
  for tool in memcheck racecheck synccheck; do
    s="512 512 1024 $([ $x = p2_splitk_atomic_half ] && echo 4 || echo 256)"
    compute-sanitizer --tool $tool build/legacy-corpus/$x.new $s /tmp/o.f32 > $OUT/san.$x.$tool.log 2>&1
    echo "$x $tool ${s// /x} rc=$? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' $OUT/san.$x.$tool.log | tr '\n' ' ')"
  done
done | tee $OUT/sanitizer.txt
cat $OUT/c/summary.txt
tail -n 6 $OUT/time.log
