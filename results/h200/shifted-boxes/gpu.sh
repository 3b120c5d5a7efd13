#!/usr/bin/env bash
# Shifted boxes (tawa::rt::box_row) against the same kernels built with
# -DTAWA_SHIFTED_BOXES=0, whose last boxes reach past A's end: each build in
# its own process against cuBLAS (the examples' checks on every shape, their
# timing: 20 pairs after 3 warm-up), then compute-sanitizer's memcheck on
# small ragged shapes of each shifted build.
#   bash results/h200/shifted-boxes/gpu.sh OUT [GEN]   (on the GPU machine)
set -u
out=${1:?usage: gpu.sh OUT [GEN]}
gen=${2:-gen/shifted-boxes}
bin=build/shifted-boxes
mkdir -p "$out" "$bin"
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -lcublas -lcublasLt -lcuda)
build() { # name src main inc defines...
  local name=$1 src=$2 main=$3 inc=$4; shift 4
  nvcc "${flags[@]}" "-I$inc" "$@" "$src" "$main" -o "$bin/$name" >"$out/build-$name.log" 2>&1 ||
    { echo "BUILD FAIL $name"; tail -5 "$out/build-$name.log"; }
}
for v in shifted whole; do
  d=(); [ $v = whole ] && d=(-DTAWA_SHIFTED_BOXES=0)
  build nt-$v "$gen/nt.ws.cu" examples/gemm/main.cu examples/gemm -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt "${d[@]}" &
  build nn-$v "$gen/nn.ws.cu" examples/gemm/main.cu examples/gemm-layouts -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nn "${d[@]}" &
  build batched-$v "$gen/batched.ws.cu" examples/gemm/main.cu examples/gemm-batched -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt "${d[@]}" &
  build epi-$v "$gen/epilogue.ws.cu" examples/gemm-epilogue/main.cu examples/gemm-epilogue "${d[@]}" &
done
wait
check=${CHECK:-1x64x64,65x256x320,72x512x4096,100x300x200,127x1000x999,129x768x512,200x520x1000,1000x1000x1000,333x4097x1023}
time=${TIME:-72x4096x4096,80x4096x4096,88x4096x4096,96x4096x4096,104x4096x4096,112x4096x4096,144x2048x4096,200x2048x4096,65x4096x4096,1000x1000x1000,1000x4096x4096,16x4096x4096}
for l in nt nn; do
  for v in shifted whole; do
    "$bin/$l-$v" --label "$l-$v" --shapes "$check" --json "$out/check-$l-$v.json" >"$out/check-$l-$v.log" 2>&1
    "$bin/$l-$v" --label "$l-$v" --shapes "$time" --time --pairs 20 --warmup 3 \
      --json "$out/time-$l-$v.json" >"$out/time-$l-$v.log" 2>&1
  done
done
for v in shifted whole; do
  "$bin/batched-$v" --label "batched-$v" --shapes 2x72x512x1024,3x200x264x320,4x100x4096x4096 \
    --time --pairs 20 --warmup 3 --json "$out/batched-$v.json" >"$out/batched-$v.log" 2>&1
done
for v in shifted whole; do
  "$bin/epi-$v" --label "epi-$v" --shapes "72x512x1024,200x520x1000,1000x1000x1000,72x4096x4096,200x2048x4096" \
    --time --json "$out/epi-$v.json" >"$out/epi-$v.log" 2>&1
done
for l in nt nn batched; do
  compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/$l-shifted" --label san \
    --shapes 72x256x512,200x320x256,$([ $l = batched ] && echo 2x100x192x128 || echo 100x192x128) >"$out/memcheck-$l.log" 2>&1
  echo "memcheck $l rc=$?" >>"$out/memcheck.txt"
done
cat "$out"/memcheck.txt
echo "== failures"; grep -l FAIL "$out"/*.log
python3 results/h200/shifted-boxes/table.py "$out"
