#!/usr/bin/env bash
# The GEMMs of activations.cu, as written and migrated, checked and timed in
# one process (check.cu). GEN holds activations.ws.cu: `tawa-rewrite
# activations.cu --migrate -o GEN/activations.migrated.cu`, then
# `tawa-rewrite GEN/activations.migrated.cu -o GEN/activations.ws.cu`.
#   bash results/h100/activations/gpu.sh OUT GEN
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=${1:?usage: gpu.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" "$repo/build/activations"
b="$repo/build/activations"
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I"$repo/include")
rename=()
for k in bias_gelu tanh_gelu bias_silu relu_ternary gelu silu; do
  rename+=(-D$k=orig_$k -Drun_$k=orig_run_$k)
done
nvcc "${flags[@]}" "${rename[@]}" -c "$here/activations.cu" -o "$b/orig.o" >"$out/build.log" 2>&1 ||
  echo "BUILD FAIL orig"
nvcc "${flags[@]}" -Xptxas -v -c "$gen/activations.ws.cu" -o "$b/ws.o" >>"$out/build.log" 2>&1 ||
  echo "BUILD FAIL ws"
nvcc "${flags[@]}" "$here/check.cu" "$b/orig.o" "$b/ws.o" -lcuda -o "$b/check" >>"$out/build.log" 2>&1 ||
  echo "BUILD FAIL check"
(cd "$gen" && sha256sum activations.migrated.cu activations.ws.cu) >"$out/sha256.txt"
"$b/check" --json "$out/activations.json" | tee "$out/table.txt"
echo "check rc=${PIPESTATUS[0]}"
