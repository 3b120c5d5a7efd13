#!/usr/bin/env bash
# The L2 promotion of the operands' tensor maps, and a padded copy of the
# operands, against the row alignment of A and B: usage
#   bash results/h100/layouts/promotion.sh [GEN_DIR]
# on the GPU machine, GEN_DIR (default gen/layouts) from rewrite.sh. Builds
# the NT example (gemm.ws.cu) against copies of include/ that differ only in
# the promotion of make_tensor_map (NONE, 64B, 128B, 256B for every map) or
# (with 256B) in copying every operand whose rows are not 32-byte aligned to
# a padded buffer first (operand_copy.cuh), and times each against cuBLAS on
# shapes whose K makes the rows an odd multiple of 16 bytes (bf16 K = 7000,
# 4104, 1000, 520), a multiple of 32 but not 128 (7008, 4000) or of 256;
# last, the rule of tma.cuh's l2_promotion as committed.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
gen=${1:-gen/layouts}
build() { # dir: nvcc the NT example against dir/include
  nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I"$1/include" -Iexamples/gemm \
    "$gen/gemm.ws.cu" examples/gemm/main.cu -o "$1/check" -lcublas
}
for p in NONE L2_64B L2_128B L2_256B; do
  mkdir -p /tmp/p$p && cp -r include /tmp/p$p/
  sed -i "s/l2_promotion(row_bytes)/CU_TENSOR_MAP_L2_PROMOTION_$p/" /tmp/p$p/include/tawa/runtime/tma.cuh
  build /tmp/p$p &
done
mkdir -p /tmp/cp && cp -r include /tmp/cp/
sed -i 's/    if (tma_addressable(m) || m.rows <= 0/    if ((tma_addressable(m) \&\& (size_t(m.ld) * sizeof(E)) % 32 == 0) || m.rows <= 0/' \
  /tmp/cp/include/tawa/runtime/operand_copy.cuh
sed -i "s/l2_promotion(row_bytes)/CU_TENSOR_MAP_L2_PROMOTION_L2_256B/" /tmp/cp/include/tawa/runtime/tma.cuh
build /tmp/cp &
# The rule of this tree: 128B where rows are not 32-byte aligned, else 256B.
mkdir -p /tmp/rule && cp -r include /tmp/rule/ && build /tmp/rule &
wait
shapes=3000x5000x7000,3072x5120x7000,4096x4096x7000,4096x4096x7008,4096x4096x4000,4096x4096x4104,1000x1016x520,6000x6000x1000,8192x8192x1000,2000x2000x2000,3000x5000x7040,4096x4096x4096,8192x8192x4096
for b in pNONE pL2_64B pL2_128B pL2_256B cp rule; do
  echo "== $b"
  /tmp/$b/check --label x --shapes $shapes --time --pairs 30 --warmup 5 2>&1 |
    grep -o "^x *[0-9x]* .*ours/cuBLAS [0-9.]*" | awk '{print $2, $NF}'
done
