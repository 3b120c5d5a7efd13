set -u
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p build/decode $OUT/p
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt -lineinfo)
[ -x build/decode/base ] || nvcc "${flags[@]}" ${GEN:-gen/decode}/gemm.ws.cu examples/gemm/main.cu -o build/decode/base -lcublas
for s in 16x4096x4096 64x2048x2048; do
  timeout 250 ncu --set detailed --import-source no -k regex:"narrow|nvjet" --launch-skip 2 --launch-count 2 \
    build/decode/base --label p --shapes $s --time --pairs 3 --warmup 1 > $OUT/p/$s.txt 2>&1
done
grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|L2 Hit|Block Size|Grid Size|Issue Slots Busy" $OUT/p/*.txt | cut -c1-160
