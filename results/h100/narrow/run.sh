#!/usr/bin/env bash
# On the GPU machine, after check-variants.sh has built build/variants/*: the
# narrow kernels (tawa/TileShape.h, NarrowTiles) of the bf16 and fp16
# examples.
#   1. Launches of few tiles, checked and timed against cuBLAS twice, in two
#      processes: as the launcher chooses (the narrow kernel at these shapes)
#      and with TAWA_NARROW=off (the 128 x 256 kernel).
#   2. The narrow kernel forced on launches of many tiles (TAWA_NARROW=force):
#      whole and partial waves, the split tail; racecheck and synccheck.
#   3. Launches of fewer tiles than SMs split by K from the start (the CTAs
#      past the tiles take pieces): 128x2048x8192 as the cost model splits
#      it, 256x512x320 forced (TAWA_SPLIT_TAIL=force); racecheck and
#      synccheck.
# Logs go to OUT_DIR; a table of ratios is printed last.
#
# usage: bash results/h100/narrow/run.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
out=${1:?usage: run.sh OUT_DIR}
mkdir -p "$out"
small=1000x1016x512,777x333x512,300x200x333,512x512x512,128x4096x4096,128x2048x8192,256x4096x4096,512x2048x2048,1024x1024x1024,256x8192x1024
rc=0
for v in bf16 fp16; do
  bin=build/variants/$v
  timeout 200 $bin --label "$v" --shapes "$small" --time --pairs 50 \
    --json "$out/$v-narrow.json" >"$out/$v-narrow.log" 2>&1 || rc=1
  TAWA_NARROW=off timeout 200 $bin --label "$v-wide" --shapes "$small" --time \
    --pairs 50 --json "$out/$v-wide.json" >"$out/$v-wide.log" 2>&1 || rc=1
  TAWA_NARROW=force timeout 200 $bin --label "$v-force" \
    --shapes 4096x4096x4096,8192x8192x512,1792x2560x320,8000x8064x4000 --time \
    --pairs 10 >"$out/$v-force.log" 2>&1 || rc=1
  for tool in racecheck synccheck; do
    TAWA_NARROW=force timeout 300 compute-sanitizer --tool $tool $bin \
      --label "$v-force" --shapes 1792x2560x320,300x201x128,200x136x77 \
      >"$out/$v-force-$tool.log" 2>&1 || rc=1
    timeout 300 compute-sanitizer --tool $tool $bin --label "$v-split" \
      --shapes 128x2048x8192 >"$out/$v-split-$tool.log" 2>&1 || rc=1
    TAWA_SPLIT_TAIL=force timeout 300 compute-sanitizer --tool $tool $bin \
      --label "$v-split-force" --shapes 256x512x320 \
      >"$out/$v-split-force-$tool.log" 2>&1 || rc=1
  done
done
echo
echo "== FAIL lines: $(cat "$out"/*.log | grep -c FAIL)"
grep -E "RACECHECK SUMMARY|ERROR SUMMARY" "$out"/*check.log
printf '%-16s %10s %10s %8s\n' shape narrow wide gain
for v in bf16 fp16; do
  paste <(grep -oE "^$v +[0-9x]+ .*ours/cuBLAS [0-9.]+" "$out/$v-narrow.log" | awk '{print $2, $NF}') \
    <(grep -oE "^$v-wide +[0-9x]+ .*ours/cuBLAS [0-9.]+" "$out/$v-wide.log" | awk '{print $NF}') |
    awk -v v=$v '{printf "%-5s %-16s %8.3f %8.3f %8.3f\n", v, $1, $2, $3, $2/$3}'
done
exit $rc
