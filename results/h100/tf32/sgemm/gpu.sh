#!/usr/bin/env bash
# The hand-written SGEMMs of sgemm.cu, as written and migrated under
# precision(tf32), checked and timed in one process (check.cu). GEN holds
# sgemm.ws.cu: `tawa-rewrite sgemm.cu --migrate -o GEN/sgemm.migrated.cu`,
# then `tawa-rewrite GEN/sgemm.migrated.cu -o GEN/sgemm.ws.cu`.
#   bash results/h100/tf32/sgemm/gpu.sh OUT GEN
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
out=${1:?usage: gpu.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" "$repo/build/sgemm"
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I"$repo/include")
nvcc "${flags[@]}" -Dclassic_kernel=orig_classic_kernel -Dclassic_sgemm=orig_classic_sgemm \
  -Dblocked_kernel=orig_blocked_kernel -Dblocked_sgemm=orig_blocked_sgemm \
  -DMatrixMulCUDA=orig_MatrixMulCUDA -Dsamples_sgemm=orig_samples_sgemm \
  -DsgemmVectorize=orig_sgemmVectorize -Dvectorized_sgemm=orig_vectorized_sgemm \
  -DsgemmWarptiling=orig_sgemmWarptiling -Dwarptiling_sgemm=orig_warptiling_sgemm \
  -Dsgemm_rows4=orig_sgemm_rows4 -Drows4_sgemm=orig_rows4_sgemm \
  -c "$here/sgemm.cu" -o "$repo/build/sgemm/orig.o" >"$out/build.log" 2>&1 || echo "BUILD FAIL orig"
nvcc "${flags[@]}" -Xptxas -v -c "$gen/sgemm.ws.cu" -o "$repo/build/sgemm/ws.o" >>"$out/build.log" 2>&1 || echo "BUILD FAIL ws"
nvcc "${flags[@]}" "$here/check.cu" "$repo/build/sgemm/orig.o" "$repo/build/sgemm/ws.o" -lcuda \
  -o "$repo/build/sgemm/check" >>"$out/build.log" 2>&1 || echo "BUILD FAIL check"
(cd "$gen" && sha256sum sgemm.migrated.cu sgemm.ws.cu) >"$out/sha256.txt"
"$repo/build/sgemm/check" --json "$out/sgemm.json" | tee "$out/table.txt"
echo "check rc=${PIPESTATUS[0]}"
echo "with --keep-pool:" | tee -a "$out/table.txt"
"$repo/build/sgemm/check" --keep-pool --json "$out/sgemm-keep-pool.json" | tee -a "$out/table.txt"
echo "check rc=${PIPESTATUS[0]}"
