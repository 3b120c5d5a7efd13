#!/usr/bin/env bash
# On the GPU machine, after results/h100/check-variants.sh has built
# build/variants/*: the narrow kernels that walk across the launch's columns
# (CTA tiles whose width does not divide the wide tile's), forced by
# TAWA_NARROW and checked against cuBLAS at whole, ragged and unaligned
# shapes: 192 columns of the bf16, fp16 and batched examples and of the
# merged variants (shape-auto: 64 x 64 blocks merged 4 x 2; shape-y: 64 x 256
# blocks merged 1 x 2), 128 columns of the 192-column variant (n192). Then
# racecheck and synccheck on the 192-column kernel of bf16, fp16 and
# shape-auto, forced and (bf16, fp16) as the launcher chooses it.
# Logs go to OUT_DIR; a summary is printed last.
#
# usage: bash results/h100/width192/check.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
out=${1:?usage: check.sh OUT_DIR}
mkdir -p "$out"
shapes=1024x2560x2048,1792x2560x320,1000x1016x512,640x4864x4096,300x201x128,200x136x77,4096x4096x1024
rc=0
for run in bf16:192 fp16:192 shape-auto:192 shape-y:192 n192:128; do
  IFS=: read -r v w <<<"$run"
  TAWA_NARROW=$w timeout 200 build/variants/$v --label "$v-force$w" --shapes "$shapes" \
    >"$out/$v-force$w.log" 2>&1 || rc=1
done
TAWA_NARROW=192 timeout 200 build/variants/bf16-batched --label bf16-batched-force192 \
  --shapes 4x1024x2304x256,3x300x201x128,2x1000x1016x512 >"$out/bf16-batched-force192.log" 2>&1 || rc=1
for tool in racecheck synccheck; do
  for v in bf16 fp16 shape-auto; do
    TAWA_NARROW=192 timeout 300 compute-sanitizer --tool $tool build/variants/$v \
      --label "$v-force192" --shapes 1792x2560x320,300x201x128,200x136x77 \
      >"$out/$v-force192-$tool.log" 2>&1 || rc=1
  done
  for v in bf16 fp16; do
    timeout 300 compute-sanitizer --tool $tool build/variants/$v --label "$v-chosen" \
      --shapes 1024x2304x256 >"$out/$v-chosen-$tool.log" 2>&1 || rc=1
  done
done
echo "== checks: $(cat "$out"/*force*[0-9].log | grep -c PASS) PASS, $(cat "$out"/*.log | grep -c FAIL) FAIL lines"
grep -H -E "RACECHECK SUMMARY|ERROR SUMMARY" "$out"/*check.log
exit $rc
