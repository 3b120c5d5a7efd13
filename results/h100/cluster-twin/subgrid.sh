#!/usr/bin/env bash
# subgrid.cu with the rewritten examples/gemm of GEN_DIR (default gen/sweep)
# and, where given, of OLD_GEN_DIR (a tool before TileSchedule::in_grid),
# under the wide cluster twin (TAWA_NARROW=off) and the 128 x 192 one
# (TAWA_NARROW=192), forced with TAWA_CLUSTER=force, for K = 520 (rows an odd
# number of 16 bytes apart) and 512. Prints one line per run.
#   bash results/h100/cluster-twin/subgrid.sh OUT [GEN_DIR [OLD_GEN_DIR]]
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: subgrid.sh OUT [GEN_DIR [OLD_GEN_DIR]]}
mkdir -p "$out" build/subgrid
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm)
builds=(new)
nvcc "${flags[@]}" -include "${2:-gen/sweep}/gemm.ws.cu" results/h100/cluster-twin/subgrid.cu \
  -o build/subgrid/new >"$out/build-new.log" 2>&1 || echo "BUILD FAIL new"
if [[ -n ${3:-} ]]; then
  builds+=(old)
  nvcc "${flags[@]}" -include "$3/gemm.ws.cu" results/h100/cluster-twin/subgrid.cu \
    -o build/subgrid/old >"$out/build-old.log" 2>&1 || echo "BUILD FAIL old"
fi
for b in "${builds[@]}"; do
  for narrow in off 192; do
    for k in 520 512; do
      echo -n "$b TAWA_NARROW=$narrow: "
      TAWA_CLUSTER=force TAWA_NARROW=$narrow build/subgrid/$b $k
    done
  done
done 2>&1 | tee "$out/subgrid.txt"
