#!/usr/bin/env bash
# The operand copies from tawa::rt::operand_pool (a pool that keeps freed
# memory) instead of the device's default pool: the migrated SGEMMs of
# results/h100/tf32/sgemm (as written against migrated, then the same with
# --keep-pool, which makes the default pool keep its memory too: with the
# operand pool the two should agree), and the tf32 NN and TN GEMMs of
# examples/gemm-tf32 (transposed copies of B, and of A and B) on the shapes
# where the copy costs most, against cuBLAS tf32 in the same process. GEN
# holds sgemm.ws.cu, nn.ws.cu and tn.ws.cu (results/h100/tf32/README.md).
#   bash results/h100/operand-pool/gpu.sh OUT GEN
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" build/pool
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm-tf32 -DGEMM_ELEMENT=tf32)
for v in nn tn; do
  nvcc "${flags[@]}" -DGEMM_LAYOUT=$v "$gen/$v.ws.cu" examples/gemm/main.cu -o build/pool/$v -lcublas -lcuda \
    >"$out/build-$v.log" 2>&1 || echo "BUILD FAIL $v" &
done
bash results/h100/tf32/sgemm/gpu.sh "$out/sgemm" "$gen" >"$out/sgemm.log" 2>&1 || echo "SGEMM FAIL"
wait
(cd "$gen" && sha256sum nn.ws.cu tn.ws.cu sgemm.ws.cu) >"$out/sha256.txt"
shapes=512x512x512,1000x1000x1000,16x4096x4096,128x4096x4096,4096x128x4096,777x1555x2333,2048x2048x2048,4096x4096x4096
for v in nn tn; do
  timeout -k 10 200 build/pool/$v --label tf32-$v --shapes "$shapes" --time --pairs 20 --warmup 3 \
    --json "$out/$v.json" >"$out/$v.log" 2>&1 || echo "RUN FAIL $v rc=$?"
done
cat "$out/sgemm/table.txt"
for v in nn tn; do grep -E "PASS|FAIL" "$out/$v.log" | cut -c1-160; done
