#!/usr/bin/env bash
# The few-rows twins' cluster twins in the other kernels that have them,
# forced on every launch that can run them (TAWA_ROW_PARTS=force
# TAWA_NARROW=64 TAWA_ROW_CLUSTER=force): the tf32 GEMMs of
# examples/gemm-tf32 (NT, NN, TN) on ragged shapes against cuBLAS's tf32 GEMM
# and the fp64 spot check, and the legacy corpus (results/h200/legacy-corpus)
# against the kernels as written.
#   bash results/h200/row-cluster/verify.sh OUT TF32_GEN CORPUS_GEN
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: verify.sh OUT TF32_GEN CORPUS_GEN}
tf32=${2:?} corpus=${3:?}
mkdir -p "$out" build/rc-verify
export TAWA_ROW_PARTS=force TAWA_NARROW=64 TAWA_ROW_CLUSTER=force
for l in nt nn tn; do
  src=$tf32/$l.ws.cu
  [[ $l == nt ]] && src=$tf32/gemm.ws.cu
  nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm-tf32 \
    -DGEMM_ELEMENT=tf32 -DGEMM_LAYOUT=$l "$src" examples/gemm/main.cu -o build/rc-verify/tf32-$l \
    -lcublas -lcublasLt -lcuda >"$out/build-tf32-$l.log" 2>&1 &
done
wait
for l in nt nn tn; do
  timeout 200 build/rc-verify/tf32-$l --label tf32-$l \
    --shapes 65x1000x520,72x4096x4096,128x4096x4096,150x1000x520,200x520x4104,257x1024x1024 \
    >>"$out/tf32.log" 2>&1
done
bash results/h200/legacy-corpus/gpu.sh "$out/corpus" "$corpus" >"$out/corpus.log" 2>&1
rm -rf "$out/corpus/build" "$out/corpus/run" "$out/corpus.tar.gz"
echo "tf32: $(grep -c PASS "$out/tf32.log") passed, $(grep -c FAIL "$out/tf32.log") failed"
tail -3 "$out/corpus.log"
