#!/usr/bin/env bash
# One device call: the legacy corpus's scratch kernels against the kernels as
# written, then medium squares in 64 x 128 tiles over row parts, with and
# without the cluster twin that shares B's tile between the two row parts.
#   bash results/h200/medium-clusters/run.sh OUT EXP_GEN BASE_GEN
# EXP_GEN: the rewrite with cluster twins of every few-rows twin; BASE_GEN
# (with its include/): the rewrite of main before that.
set -uo pipefail
out=${1:?} exp=${2:?} base=${3:?}
mkdir -p "$out"
ONLY="wmma_scratch_reuse_half wmma_scratch_colmajor_alpha" JOBS=4 \
  bash results/h200/legacy-corpus/gpu.sh "$out/corpus" gen/legacy-corpus > "$out/corpus.log" 2>&1
tail -n 12 "$out/corpus/summary.txt"
SHAPES=${SHAPES:-1000x1000x1000,1024x1024x1024,1024x1024x4096,768x1024x2048,1152x1152x1152,896x1152x1024,512x2048x2048,1000x1000x4000} \
OLD_GEN=$base PAIRS=${PAIRS:-20} \
CHOICES=${CHOICES:-"old default NARROW=128+ROW_PARTS=force+ROW_CLUSTER=off NARROW=128+ROW_PARTS=force+ROW_CLUSTER=force NARROW=64+ROW_PARTS=force+ROW_CLUSTER=force"} \
  bash results/h200/weak-shapes/gpu.sh "$out/time" "$exp" nt tt > "$out/time.log" 2>&1
tail -n 40 "$out/time/table.txt"
