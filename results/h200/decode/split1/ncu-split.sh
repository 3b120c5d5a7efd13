export PATH=/usr/local/cuda/bin:$PATH
mkdir -p build/decode $OUT/q
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm -lineinfo gen/steps-new/gemm.ws.cu examples/gemm/main.cu -o build/decode/cur -lcublas
for s in 64x4096x4096 8x8192x2048 64x1024x4096; do for sp in auto off; do
  TAWA_SPLIT_TAIL=$sp timeout 120 ncu --section SpeedOfLight --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --metrics sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_active.min,smsp__pcsamp_warps_issue_stalled_barrier,l2__t_bytes.sum,dram__bytes_read.sum -k regex:"narrow" --launch-skip 2 --launch-count 1 \
    build/decode/cur --label p --shapes $s --time --pairs 2 --warmup 1 > $OUT/q/$s-$sp.txt 2>&1
  echo "== $s $sp"; grep -E "^  [a-z_]+\(|Duration|DRAM Throughput|sm__cycles_active|Elapsed Cycles|dram__bytes_read|l2__t_bytes|Grid Size|Warp Cycles Per Issued" $OUT/q/$s-$sp.txt | sed 's/  */ /g' | cut -c1-120
done; done
