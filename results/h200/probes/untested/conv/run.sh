#!/usr/bin/env bash
# The cooperative convolution probes on the GPU: GEN holds each probe's
# rewrite (pNN.ws.cu, `tawa-rewrite pNN_*.cu -o GEN/pNN.ws.cu --`). Each
# probe, as written and rewritten, is built with wrappers.cu as a shared
# library, checked and timed by check.py, then the rewritten ones run under
# compute-sanitizer's racecheck on the small shapes.
#   bash results/h200/probes/untested/conv/run.sh OUT GEN
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../../.." && pwd)
out=${1:?usage: run.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" "$gen/build"
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I"$repo/include" -Xcompiler -fPIC
  -shared -diag-suppress 20199)
for p in p03 p04 p05 p06; do
  src=$(ls "$here"/../${p}_*.cu)
  cat "$src" "$here/wrappers.cu" >"$gen/build/$p.orig.cu"
  cat "$gen/$p.ws.cu" "$here/wrappers.cu" >"$gen/build/$p.ws.cu"
  P=$(echo $p | tr a-z A-Z)
  for v in orig ws; do
    nvcc "${flags[@]}" -DPROBE_$P -Xptxas -v "$gen/build/$p.$v.cu" -o "$gen/build/$p.$v.so" \
      >"$out/build-$p.$v.log" 2>&1 || echo "BUILD FAIL $p $v" &
  done
done
wait
(cd "$gen" && sha256sum p03.ws.cu p04.ws.cu p05.ws.cu p06.ws.cu) >"$out/sha256.txt"
python3 "$here/check.py" "$gen/build" "$out/conv-probes.json" 2>&1 | tee "$out/check.log" | tail -n 20
timeout 300 compute-sanitizer --tool racecheck --error-exitcode 1 --kernel-regex kns=_tiled \
  python3 "$here/check.py" "$gen/build" "$out/racecheck.json" small >"$out/racecheck.log" 2>&1 ||
  echo "SANITIZER FAIL racecheck"
tail -n 3 "$out/racecheck.log"
