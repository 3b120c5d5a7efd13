#!/usr/bin/env bash
# On the GPU machine, after check-variants.sh has built build/variants/bf16
# and fp16: the narrow kernel (TAWA_NARROW=force) against the wide one
# (TAWA_NARROW=off) at shapes of 16 to 256 wide tiles, each checked and timed
# against cuBLAS; the ratio of the two says where the launcher's rule
# (tawa::rt::narrow_pays: narrow where the narrow tiles fill at most two
# waves) should draw its line.
#
# usage: bash results/h100/narrow/rule.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
out=${1:?usage: rule.sh OUT_DIR}
mkdir -p "$out"
shapes=512x1024x1024,1024x2048x512,512x4096x2048,1024x2048x2048,768x4096x4096,1024x4096x2048,2048x2048x1024,2048x4096x1024
rc=0
for v in bf16 fp16; do
  for mode in force off; do
    TAWA_NARROW=$mode timeout 200 build/variants/$v --label "$v-$mode" \
      --shapes "$shapes" --time --pairs 30 >"$out/$v-$mode.log" 2>&1 || rc=1
  done
done
echo "== FAIL lines: $(cat "$out"/*.log | grep -c FAIL)"
printf '%-5s %-16s %6s %8s %8s %8s\n' elem shape tiles narrow wide ratio
for v in bf16 fp16; do
  paste <(grep -oE "^$v-force +[0-9x]+ .*ours/cuBLAS [0-9.]+" "$out/$v-force.log" | awk '{print $2, $NF}') \
    <(grep -oE "^$v-off +[0-9x]+ .*ours/cuBLAS [0-9.]+" "$out/$v-off.log" | awk '{print $NF}') |
    awk -v v=$v '{split($1, d, "x"); t = int((d[1] + 127) / 128) * int((d[2] + 255) / 256);
      printf "%-5s %-16s %6d %8.3f %8.3f %8.3f\n", v, $1, t, $2, $3, $2 / $3}'
done
exit $rc
