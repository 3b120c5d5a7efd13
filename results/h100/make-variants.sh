#!/usr/bin/env bash
# The variants of examples/gemm/gemm.cu checked in odd-chunks/ and
# sanitizer-variants/, written to gen/variants/ and rewritten there. Each one
# changes one thing: a clause, or the tile's N (and with it the grid), or
# both (pingpong, shape-auto, shape-y).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
mkdir -p gen/variants
src=examples/gemm/gemm.cu
pragma='#pragma tawa tile stages(4) consumers(2)'
sed "s/$pragma/$pragma cluster(2)/" $src >gen/variants/cluster.cu
sed "s/$pragma/$pragma persistent(off)/" $src >gen/variants/nonpersistent.cu
sed 's/256/120/g' $src >gen/variants/direct.cu # 120 columns: direct stores
sed 's/256/192/g' $src >gen/variants/n192.cu   # three store chunks per tile
sed 's/256/64/g' $src >gen/variants/n64.cu     # one store chunk per tile
# 128 x 128 tiles, one per consumer, main loops in turn
sed "s/256/128/g; s/$pragma/#pragma tawa tile schedule(pingpong)/" $src >gen/variants/pingpong.cu
# Tiles written smaller than the CTA tile: 64 x 64 with shape(auto) (merged
# 2 x 4 into 128 x 256), and 64 x 256 with shape(128, 256) (merged along y).
sed "s/256/64/g; s/128/64/g; s/$pragma/#pragma tawa tile shape(auto)/" $src >gen/variants/shape-auto.cu
sed "s/128/64/g; s/$pragma/#pragma tawa tile shape(128, 256)/" $src >gen/variants/shape-y.cu
for v in cluster nonpersistent direct n192 n64 pingpong shape-auto shape-y; do
  build/tool/tawa-rewrite/tawa-rewrite gen/variants/$v.cu -o gen/variants/$v.ws.cu -- -Iexamples/gemm
done
