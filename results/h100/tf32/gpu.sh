#!/usr/bin/env bash
# The tf32 GEMMs (examples/gemm-tf32, `precision(tf32)`) on the GPU: the
# rewritten files (GEN/gemm.ws.cu, nn.ws.cu, tn.ws.cu, from `tawa-rewrite
# examples/gemm-tf32/<file>.cu`; NN and TN read their K x MN operands from
# transposed copies) linked with examples/gemm/main.cu built for
# -DGEMM_ELEMENT=tf32 and the layout, checked
# against cuBLAS with CUBLAS_COMPUTE_32F_FAST_TF32 and the fp64 spot check, then
# timed against that cuBLAS call in the same process. Then every kernel of the
# family forced in turn (narrow, cluster twin, split tail off), checked; the
# kernel as written (tile.h's reference, fp32 FMAs) checked on small shapes for
# its fp64 error; racecheck and synccheck on ragged launches. The table is
# printed last; everything lands in OUT.
#   bash results/h100/tf32/gpu.sh OUT GEN
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" build/tf32
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm-tf32 -DGEMM_ELEMENT=tf32 -Xptxas -v)
build() { # name source layout
  nvcc "${flags[@]}" -DGEMM_LAYOUT=$3 "$2" examples/gemm/main.cu -o "build/tf32/$1" -lcublas -lcuda \
    >"$out/build-$1.log" 2>&1 || echo "BUILD FAIL $1"
}
build nt "$gen/gemm.ws.cu" nt &
build nn "$gen/nn.ws.cu" nn &
build tn "$gen/tn.ws.cu" tn &
build ref examples/gemm-tf32/gemm.cu nt &
build ref-nn examples/gemm-tf32/nn.cu nn &
wait
(cd "$gen" && sha256sum gemm.ws.cu nn.ws.cu tn.ws.cu) >"$out/sha256.txt"
awk '/Compiling entry/ { ref = /_reference/ } !ref' "$out"/build-nt.log "$out"/build-nn.log "$out"/build-tn.log |
  grep -iE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill' && echo "PTXAS WARNINGS"
shapes=${SHAPES:-512x512x512,1000x1000x1000,1024x1024x1024,2048x2048x2048,3000x3000x3000,4096x4096x4096,6144x6144x6144,8192x8192x8192,16x4096x4096,128x4096x4096,4096x128x4096,4096x11008x4096,8192x8192x28672,777x1555x2333,2003x3001x4001,4093x4091x4096}
for v in nt nn tn; do
  timeout -k 10 300 build/tf32/$v --label tf32-$v --shapes "$shapes" --time --pairs 20 --warmup 3 \
    --json "$out/$v.json" >"$out/$v.log" 2>&1 || echo "RUN FAIL $v rc=$?"
done
small=200x328x200,16x520x264,1000x1000x136,777x1555x2333,3000x3000x3000
for v in nt nn; do
  for mode in TAWA_NARROW=force TAWA_NARROW=128 TAWA_NARROW=192 TAWA_CLUSTER=force TAWA_SPLIT_TAIL=off TAWA_EDGE_BOXES=off; do
    name=$(echo "${mode#TAWA_}" | tr 'A-Z=' 'a-z-')
    env "$mode" timeout -k 10 120 build/tf32/$v --label "tf32-$v-$mode" --shapes "$small" \
      --json "$out/mode-$v-$name.json" >"$out/mode-$v-$name.log" 2>&1 || echo "RUN FAIL $v $mode rc=$?"
  done
done
for v in ref ref-nn; do
  timeout -k 10 200 build/tf32/$v --label reference --shapes 512x512x512,1000x1000x1000,16x4096x4096 \
    --json "$out/$v.json" >"$out/$v.log" 2>&1 || echo "RUN FAIL $v rc=$?"
done
for v in nt nn; do
  for tool in racecheck synccheck; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 1 build/tf32/$v --label tf32 \
      --shapes 200x328x200,16x520x264,1000x1000x136 >"$out/$v-$tool.log" 2>&1 ||
      echo "SANITIZER FAIL $v $tool"
    tail -n 2 "$out/$v-$tool.log"
  done
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
print("tf32 GEMM: ours / cuBLAS (CUBLAS_COMPUTE_32F_FAST_TF32), medians of 20 pairs; spot: fp64 spot-check error")
print(f"{'layout':>6} {'shape':>18} {'pass':>5} {'rel_err':>9} {'spot ours':>10} {'spot cuBLAS':>11} {'ours us':>9} {'TFLOP/s':>8} {'ratio':>6}")
for v in ("nt", "nn", "tn"):
    for r in rows(f"{v}.json"):
        ms = r.get("ms")
        print(f"{v:>6} {r['shape']:>18} {str(r['pass']):>5} {r['rel_err']:9.2e} {r['spot_err']:10.2e} {r['cublas_spot_err']:11.2e} "
              f"{(ms or 0) * 1e3:9.1f} {r.get('tflops') or 0:8.1f} {r.get('ratio') or 0:6.3f}")
for f in sorted(glob.glob(os.path.join(out, "mode-*.json"))) + [os.path.join(out, "ref.json"), os.path.join(out, "ref-nn.json")]:
    rs = rows(os.path.basename(f))
    print(f"{os.path.basename(f)}: " + ", ".join(
        f"{r['shape']} {'pass' if r['pass'] else 'FAIL'} spot {r['spot_err']:.1e}" for r in rs))
PY
