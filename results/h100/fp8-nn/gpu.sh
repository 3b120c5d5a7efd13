#!/usr/bin/env bash
# fp8 GEMMs with B stored K x N (examples/gemm-fp8/nn.cu), rewritten: the
# launcher reads B from a transposed copy made on the stream. Built with the
# fp8 check driver for that layout (-DGEMM_LAYOUT=nn) and, beside it, the
# N x K GEMMs (gemm_fp8.cu) as the same driver runs them; each checked against
# cuBLAS in fp32 on the exact fp8 values (poisoned outputs) and timed against
# cuBLASLt's fp8 matmul on the N x K B (the only B layout its fp8 kernels take)
# in the same process. Then memcheck, racecheck and synccheck of the NN GEMMs
# on ragged shapes. GEN holds nn.ws.cu and gemm_fp8.ws.cu (`tawa-rewrite
# examples/gemm-fp8/<file>.cu -o GEN/<out> -- -Iexamples/gemm-fp8`).
#   bash results/h100/fp8-nn/gpu.sh OUT GEN
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN}
gen=${2:?}
mkdir -p "$out" build/fp8-nn
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm-fp8 -Xptxas -v)
nvcc "${flags[@]}" -DGEMM_LAYOUT=nn "$gen/nn.ws.cu" examples/gemm-fp8/main.cu -o build/fp8-nn/nn \
  -lcublas -lcublasLt -lcuda >"$out/build-nn.log" 2>&1 || echo "BUILD FAIL nn" &
nvcc "${flags[@]}" "$gen/gemm_fp8.ws.cu" examples/gemm-fp8/main.cu -o build/fp8-nn/nt \
  -lcublas -lcublasLt -lcuda >"$out/build-nt.log" 2>&1 || echo "BUILD FAIL nt" &
nvcc "${flags[@]}" -DGEMM_LAYOUT=nn examples/gemm-fp8/nn.cu examples/gemm-fp8/main.cu -o build/fp8-nn/ref-nn \
  -lcublas -lcublasLt -lcuda >"$out/build-ref-nn.log" 2>&1 || echo "BUILD FAIL ref-nn" &
wait
(cd "$gen" && sha256sum nn.ws.cu gemm_fp8.ws.cu) >"$out/sha256.txt"
awk '/Compiling entry/ { ref = /_reference/ } !ref' "$out"/build-nn.log "$out"/build-nt.log |
  grep -iE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill' && echo "PTXAS WARNINGS"
shapes=${SHAPES:-512x512x512,1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,4096x11008x4096,16384x4096x4096,128x4096x4096,4096x4096x16384,129x257x73,200x332x77,1000x1016x520,2003x3001x4001}
for v in nn nt; do
  timeout -k 10 240 build/fp8-nn/$v --label fp8-$v --shapes "$shapes" --time \
    --json "$out/$v.json" >"$out/$v.log" 2>&1 || echo "RUN FAIL $v rc=$?"
done
# The kernels as written on small shapes (tile.h's reference).
timeout -k 10 120 build/fp8-nn/ref-nn --label reference-nn --shapes 129x257x73,512x512x512 \
  --json "$out/ref-nn.json" >"$out/ref-nn.log" 2>&1 || echo "RUN FAIL ref-nn rc=$?"
for tool in memcheck racecheck synccheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 1 build/fp8-nn/nn --label fp8-nn \
    --shapes 129x257x73,200x332x77,1000x1016x520 >"$out/nn-$tool.log" 2>&1 || echo "SANITIZER FAIL nn $tool"
  tail -n 1 "$out/nn-$tool.log"
done
python3 - "$out" <<'PY' | tee "$out/table.txt"
import json, math, os, sys
out = sys.argv[1]
rows = {}
for v in ("nn", "nt"):
    p = os.path.join(out, v + ".json")
    if not os.path.exists(p):
        continue
    for r in json.load(open(p)):
        rows.setdefault((r["gemm"], r["shape"]), {})[v] = r
print(f"{'gemm':<14} {'shape':<16} {'nn pass':>7} {'nn/Lt':>7} {'nt/Lt':>7} {'nn/nt':>7}")
ratios = {"nn": [], "nt": []}
for (g, s), d in rows.items():
    nn, nt = d.get("nn", {}), d.get("nt", {})
    a, b = nn.get("ratio"), nt.get("ratio")
    for v, x in (("nn", a), ("nt", b)):
        if x:
            ratios[v].append((s, x))
    rel = a / b if a and b else float("nan")
    f = lambda x: f"{x:7.3f}" if x else "      -"
    print(f"{g:<14} {s:<16} {str(nn.get('pass')):>7} {f(a)} {f(b)} {rel:7.3f}")
def big(s):
    return all(int(x) >= 4096 for x in s.split("x"))
for v, xs in ratios.items():
    for name, sel in (("all", xs), ("M,N,K>=4096", [x for x in xs if big(x[0])])):
        if sel:
            g = math.exp(sum(math.log(r) for _, r in sel) / len(sel))
            print(f"{v} {name}: geomean {g:.3f}, min {min(r for _, r in sel):.3f} over {len(sel)}")
PY
