#!/usr/bin/env bash
# On the GPU machine, with build/variants/bf16 and fp16 built: launches of
# fewer tiles than SMs with the split tail (the default, which may split them
# from the start) and without it (TAWA_SPLIT_TAIL=off), in alternating
# processes, twice; prints our time in ms per shape and run (ab.log keeps the
# whole gemm-check output, each shape checked before it is timed).
#
# usage: bash results/h100/narrow/split-ab.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
out=${1:?usage: split-ab.sh OUT_DIR}
mkdir -p "$out"
shapes=128x4096x4096,128x2048x8192,128x8192x8192,256x2048x8192,128x1024x16384,512x1024x4096
for i in 1 2; do
  for m in off on; do
    for v in bf16 fp16; do
      if [[ $m == off ]]; then e=off; else e=; fi
      TAWA_SPLIT_TAIL=$e build/variants/$v --label $v-split-$m --shapes $shapes \
        --time --pairs 40 2>&1 | tee -a "$out/ab.log" |
        grep -oE "^[^ ]+ +[0-9x]+ .*ours [0-9.]+ ms" |
        awk '{print $1, $2, $(NF-1)}' | tr '\n' ' '
      echo
    done
  done
done
