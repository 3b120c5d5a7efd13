#!/usr/bin/env bash
# Builds the three GEMM check drivers (gemm-fp8, gemm-epilogue, legacy) with
# the rewritten kernels of their rewrite.sh scripts (gen/fp8, gen/epilogue,
# gen/legacy) and checks them on two ragged shapes; the legacy one also times.
# Usage, on the GPU machine: OUT=dir bash results/h100/drivers-check.sh
set -u
f=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude)
mkdir -p build/drv
nvcc "${f[@]}" -Iexamples/gemm-fp8 gen/fp8/gemm_fp8.ws.cu examples/gemm-fp8/main.cu -o build/drv/fp8 -lcublas -lcublasLt -lcuda > $OUT/b1.log 2>&1 &
nvcc "${f[@]}" -Iexamples/gemm-epilogue gen/epilogue/epilogue.ws.cu examples/gemm-epilogue/main.cu -o build/drv/epi -lcublas -lcublasLt -lcuda > $OUT/b2.log 2>&1 &
nvcc "${f[@]}" -diag-suppress 20199 -Iexamples/legacy -Dsmem_gemm=orig_smem_gemm -Dsmem_gemm_nt=orig_smem_gemm_nt -Dsquare_matmul=orig_square_matmul -DMatrixMulKernel=orig_MatrixMulKernel -Dgemm_smem=orig_gemm_smem -Dgemm_smem_nt=orig_gemm_smem_nt -c examples/legacy/legacy.cu -o build/drv/orig.o > $OUT/b3.log 2>&1 && nvcc "${f[@]}" -Iexamples/legacy gen/legacy/legacy.ws.cu examples/legacy/main.cu build/drv/orig.o -o build/drv/legacy -lcublas -lcuda >> $OUT/b3.log 2>&1 &
wait
grep -E "error" $OUT/b*.log | head
s=129x257x73,1000x1016x520
build/drv/fp8 --label fp8 --shapes $s; echo rc=$?
build/drv/epi --label epi --shapes $s; echo rc=$?
build/drv/legacy --label legacy --shapes $s --time; echo rc=$?
