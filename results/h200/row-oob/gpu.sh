#!/usr/bin/env bash
# A's rows padded to whole 128-row tiles (PAD_A=128) against A of exactly M
# rows, each in its own process against cuBLAS (examples/gemm/main.cu's
# timing: 20 pairs, 3 warm-up runs, every result checked): the cost of TMA's
# out-of-bounds fill in the A boxes of the last row of tiles.
#   bash results/h200/row-oob/gpu.sh OUT [GEN]   (on the GPU machine, GEN from make.sh)
set -u
out=${1:?usage: gpu.sh OUT [GEN]}
gen=${2:-gen/row-oob}
mkdir -p "$out" build/row-oob
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm \
  -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt "$gen/gemm.ws.cu" "$gen/main_pad.cu" \
  -o build/row-oob/nt -lcublas -lcublasLt -lcuda >"$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
shapes=${SHAPES:-72x4096x4096,80x4096x4096,96x4096x4096,112x4096x4096,128x4096x4096,144x2048x4096,200x2048x4096,16x4096x4096,48x4096x4096}
for c in none 128; do
  if [ $c = none ]; then env=(); else env=(PAD_A=$c); fi
  env "${env[@]}" build/row-oob/nt --label "pad$c" --shapes "$shapes" --time --pairs 20 --warmup 3 \
    --json "$out/pad${c}_1.json" >"$out/pad${c}_1.log" 2>&1
done
grep -h FAIL "$out"/*.log | head
for f in "$out"/pad*_1.log; do echo "== $f"; grep -E 'PASS|FAIL' "$f"; done
