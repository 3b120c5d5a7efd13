#!/usr/bin/env bash
# One GPU call: check, time and sanitize the split-K probes whose slices come from gridDim.z (p31, p32).
# gen/splitk2 is written on the build machine:
#   mkdir -p gen/splitk2 && python3 results/h200/probes/untested/gen_mains.py gen/splitk2
#   for x in p31_splitk_griddim_macros_half p32_regblock_splitk_tiles_bf16; do
#     cp results/h200/probes/untested/$x.cu gen/splitk2/
#     build/tool/tawa-rewrite/tawa-rewrite gen/splitk2/$x.cu -o gen/splitk2/$x.ws.cu \
#       -- --cuda-gpu-arch=sm_90a -Iinclude; done
#   cp results/h200/probes/untested/shapes.sh results/h200/legacy-corpus/compare.py \
#      results/h200/legacy-corpus/drivers/driver.h gen/splitk2/
# then on the GPU machine: OUT=DIR bash results/h200/probes/untested/run-splitk-grid.sh
set -u
KS="p31_splitk_griddim_macros_half p32_regblock_splitk_tiles_bf16"
find gen/splitk2 -name '*_main.cu' | grep -v -e p31_ -e p32_ | xargs rm -f
JOBS=8 bash results/h200/legacy-corpus/gpu.sh $OUT/c gen/splitk2 > $OUT/gpu.log 2>&1
ONLY="$KS" bash results/h200/legacy-corpus/time.sh $OUT/t > $OUT/time.log 2>&1
for x in $KS; do
  for tool in memcheck racecheck synccheck; do
    s="512 512 1024 4"
    compute-sanitizer --tool $tool build/legacy-corpus/$x.new $s /tmp/o.f32 > $OUT/san.$x.$tool.log 2>&1
    echo "$x $tool ${s// /x} rc=$? $(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' $OUT/san.$x.$tool.log | tr '\n' ' ')"
  done
done | tee $OUT/sanitizer.txt
cat $OUT/c/summary.txt
tail -n 6 $OUT/time.log
