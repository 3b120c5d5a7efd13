#!/usr/bin/env bash
# The legacy GEMMs on a Hopper GPU, in one call: usage
#   bash results/h100/legacy/gpu.sh OUT [GEN_DIR]
# with GEN_DIR (default gen/legacy) written by rewrite.sh. Builds the file as
# written (functions renamed orig_*) and links it with each migrated form:
#   mig: the tile-vocabulary form (tile.h's reference runs it), checked on
#        small and ragged shapes;
#   ws:  that form rewritten (warp-specialized), checked on the same shapes,
#        with compute-sanitizer racecheck and synccheck, then checked and
#        timed against the original on large and medium shapes (table last).
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT [GEN_DIR]}
gen=${2:-gen/legacy}
mkdir -p "$out" build/legacy
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/legacy)
rename=(-Dsmem_gemm=orig_smem_gemm -Dsmem_gemm_nt=orig_smem_gemm_nt -Dsquare_matmul=orig_square_matmul -DMatrixMulKernel=orig_MatrixMulKernel
        -Dgemm_smem=orig_gemm_smem -Dgemm_smem_nt=orig_gemm_smem_nt
        -Dwhole_tiles_gemm=orig_whole_tiles_gemm -Dgemm_whole_tiles=orig_gemm_whole_tiles
        -Dtemplate_tile_gemm=orig_template_tile_gemm -Dgemm_template_tile=orig_gemm_template_tile
        -Dbatched_gemm=orig_batched_gemm -Dgemm_batched=orig_gemm_batched
        -Dwmma_gemm=orig_wmma_gemm -Dwmma_gemm_kernel=orig_wmma_gemm_kernel
        -Dflat_gemm=orig_flat_gemm -Dgemm_flat=orig_gemm_flat
        -Dbias_relu_gemm=orig_bias_relu_gemm -Dgemm_bias_relu=orig_gemm_bias_relu
        -Ddouble_buffered_gemm=orig_double_buffered_gemm -Dgemm_double_buffered=orig_gemm_double_buffered
        -Dblocked_gemm=orig_blocked_gemm -Dgemm_blocked=orig_gemm_blocked
        -Dblocked_checked_gemm=orig_blocked_checked_gemm -Dgemm_blocked_checked=orig_gemm_blocked_checked
        -Dwmma_smem_gemm=orig_wmma_smem_gemm -Dwmma_smem_kernel=orig_wmma_smem_kernel
        -Dfixed_extents_gemm=orig_fixed_extents_gemm -Dgemm_fixed_extents=orig_gemm_fixed_extents
        -Dwmma_col_major_gemm=orig_wmma_col_major_gemm -Dwmma_col_major_kernel=orig_wmma_col_major_kernel)
rc=0
nvcc "${flags[@]}" -diag-suppress 20199 "${rename[@]}" -c examples/legacy/legacy.cu -o build/legacy/orig.o \
  >"$out/build-orig.log" 2>&1
for v in migrated ws; do
  nvcc "${flags[@]}" -Xptxas -v "$gen/legacy.$v.cu" examples/legacy/main.cu build/legacy/orig.o \
    -o "build/legacy/$v" -lcublas -lcuda >"$out/build-$v.log" 2>&1 &
done
wait
grep -E "error|warning" "$out"/build-*.log | head -5
small=129x257x73,129x257x80,1000x1016x520,256x512x1024,300x700x200,1000x1000x1001
echo "== tile-vocabulary form (tile.h reference)"
timeout 300 build/legacy/migrated --label migrated --shapes "$small" --json "$out/migrated.json" \
  2>&1 | tee "$out/migrated.log" || rc=1
echo "== rewritten"
timeout 120 build/legacy/ws --label ws --shapes "$small" --json "$out/ws.json" \
  2>&1 | tee "$out/ws.log" || rc=1
for tool in racecheck synccheck; do
  echo "== $tool"
  timeout 240 compute-sanitizer --tool $tool --error-exitcode 3 build/legacy/ws \
    --label ws --shapes 384x768x320 2>&1 | tail -3 | tee "$out/$tool.log" || rc=1
done
echo "== timed"
timeout 400 build/legacy/ws --label ws --time \
  --shapes "${TIME_SHAPES:-4096x4096x4096,2048x2048x2048,1000x1016x520,4096x11008x4096,129x257x73,1000x1000x1001}" \
  --json "$out/timed.json" 2>&1 | tee "$out/timed.log" || rc=1
tar -C "$out" -czf "$out.tar.gz" . && rm -rf "$out"
exit $rc
