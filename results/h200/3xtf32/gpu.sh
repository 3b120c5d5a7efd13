#!/usr/bin/env bash
# fp32 GEMMs under precision(3xtf32) (examples/gemm-3xtf32) on the GPU: the
# rewritten files (GEN/gemm.ws.cu, GEN/nn.ws.cu, from `tawa-rewrite
# examples/gemm-3xtf32/<file>.cu`) linked with examples/gemm/main.cu built
# for -DGEMM_ELEMENT=f32, checked against cuBLAS's fp32 SGEMM and the fp64
# spot check with a tolerance of 3e-4 (1xTF32 fails it), then timed against
# that SGEMM in the same process. Then the 1xTF32 kernel of examples/gemm-tf32
# on the same shapes, checked with its own tolerance and timed against
# cuBLAS's TF32 GEMM, for the cost of the two extra products; every kernel
# of the 3xtf32 family forced in turn on ragged shapes; racecheck and
# synccheck. The table is printed last; everything lands in OUT.
#   bash results/h200/3xtf32/gpu.sh OUT GEN
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" build/3xtf32
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Xptxas -v)
build() { # name source layout element include
  nvcc "${flags[@]}" -I"$5" -DGEMM_ELEMENT=$4 -DGEMM_LAYOUT=$3 "$2" examples/gemm/main.cu \
    -o "build/3xtf32/$1" -lcublas >"$out/build-$1.log" 2>&1 || echo "BUILD FAIL $1"
}
build nt "$gen/gemm.ws.cu" nt f32 examples/gemm-3xtf32 &
build nn "$gen/nn.ws.cu" nn f32 examples/gemm-3xtf32 &
build tf32 "$gen/tf32.ws.cu" nt tf32 examples/gemm-tf32 &
wait
(cd "$gen" && sha256sum gemm.ws.cu nn.ws.cu tf32.ws.cu) >"$out/sha256.txt"
awk '/Compiling entry/ { ref = /_reference/ } !ref' "$out"/build-nt.log "$out"/build-nn.log |
  grep -iE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill' && echo "PTXAS WARNINGS"
shapes=${SHAPES:-1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,3000x3000x3000,777x1555x2333,128x4096x4096,4096x11008x4096}
for v in nt nn tf32; do
  timeout -k 10 240 build/3xtf32/$v --label $v --shapes "$shapes" --time --pairs 20 --warmup 3 \
    --json "$out/$v.json" >"$out/$v.log" 2>&1 || echo "RUN FAIL $v rc=$?"
done
# The 128 x 128 narrow kernel on the large shapes: half the slot, three
# stages where the wide kernel has two.
TAWA_NARROW=128 timeout -k 10 120 build/3xtf32/nt --label nt-128 --shapes 4096x4096x4096,8192x8192x8192 \
  --time --pairs 10 --warmup 2 --json "$out/nt-128.json" >"$out/nt-128.log" 2>&1 || echo "RUN FAIL nt-128 rc=$?"
small=200x328x200,16x520x264,1000x1000x136,777x1555x2333
for mode in TAWA_NARROW=force TAWA_NARROW=128 TAWA_CLUSTER=force TAWA_SPLIT_TAIL=off; do
  name=$(echo "${mode#TAWA_}" | tr 'A-Z=' 'a-z-')
  env "$mode" timeout -k 10 120 build/3xtf32/nt --label "nt-$mode" --shapes "$small" \
    --json "$out/mode-$name.json" >"$out/mode-$name.log" 2>&1 || echo "RUN FAIL $mode rc=$?"
done
for tool in racecheck synccheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 1 build/3xtf32/nt --label s \
    --shapes 200x328x200,16x520x264 >"$out/nt-$tool.log" 2>&1 || echo "SANITIZER FAIL $tool"
  tail -n 1 "$out/nt-$tool.log"
done
python3 - "$out" <<'PY' | tee "$out/table.txt"
import glob, json, os, sys
out = sys.argv[1]
def rows(name):
    try:
        return json.load(open(os.path.join(out, name)))["results"]
    except Exception as e:
        print(f"{name}: {e}")
        return []
print("nt, nn: precision(3xtf32) / cuBLAS fp32 SGEMM (tolerance 3e-4); tf32: precision(tf32) / cuBLAS TF32")
print(f"{'kernel':>6} {'shape':>18} {'pass':>5} {'rel_err':>9} {'spot':>9} {'spot cuBLAS':>11} {'us':>9} {'TFLOP/s':>8} {'ratio':>6}")
for v in ("nt", "nn", "tf32", "nt-128"):
    for r in rows(f"{v}.json"):
        ms = r.get("ms") or 0
        print(f"{v:>6} {r['shape']:>18} {str(r['pass']):>5} {r['rel_err']:9.2e} {r['spot_err']:9.2e} "
              f"{r['cublas_spot_err']:11.2e} {ms * 1e3:9.1f} {r.get('tflops') or 0:8.1f} {r.get('ratio') or 0:6.3f}")
for f in sorted(glob.glob(os.path.join(out, "mode-*.json"))):
    rs = rows(os.path.basename(f))
    print(f"{os.path.basename(f)}: " + ", ".join(
        f"{r['shape']} {'pass' if r['pass'] else 'FAIL'} spot {r['spot_err']:.1e}" for r in rs))
PY
