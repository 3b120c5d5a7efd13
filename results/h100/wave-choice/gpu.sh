#!/usr/bin/env bash
# The narrow kernels for launches of more than a wave (narrow_choice,
# tawa/runtime/schedule.cuh) measured: the rewritten bf16 NT and TN GEMMs,
# fp8 and the fused epilogues, each shape checked, then timed against cuBLAS
# (cuBLASLt for fp8 and the epilogues) in one process, with the wide kernel
# forced (TAWA_NARROW=off: what every launch of more than a wave ran before)
# and as the launcher chooses, twice in turn.
#   bash results/h100/wave-choice/gpu.sh OUT [GEN_DIR]
# GEN_DIR (default gen/sweep) as bench/sweep-rewrite.sh writes it; KINDS
# (default "nt tn fp8 epi") says which run; SANITIZE=1 adds racecheck and
# synccheck of the NT GEMM on a launch of 144 wide tiles. Writes
# OUT.tar.gz; the table is printed last.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT [GEN_DIR]}
gen=${2:-gen/sweep}
mkdir -p "$out" build/wave
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Xptxas -v)
nvcc "${flags[@]}" -Iexamples/gemm -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt "$gen/gemm.ws.cu" \
  examples/gemm/main.cu -o build/wave/nt -lcublas >"$out/build-nt.log" 2>&1 || echo "BUILD FAIL nt" &
nvcc "${flags[@]}" -Iexamples/gemm-layouts -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=tn "$gen/gemm-tn.ws.cu" \
  examples/gemm/main.cu -o build/wave/tn -lcublas >"$out/build-tn.log" 2>&1 || echo "BUILD FAIL tn" &
nvcc "${flags[@]}" -Iexamples/gemm-fp8 "$gen/gemm_fp8.ws.cu" examples/gemm-fp8/main.cu \
  -o build/wave/fp8 -lcublas -lcublasLt -lcuda >"$out/build-fp8.log" 2>&1 || echo "BUILD FAIL fp8" &
nvcc "${flags[@]}" -Iexamples/gemm-epilogue "$gen/epilogue.ws.cu" examples/gemm-epilogue/main.cu \
  -o build/wave/epi -lcublas -lcublasLt -lcuda >"$out/build-epi.log" 2>&1 || echo "BUILD FAIL epi" &
wait
for f in "$out"/build-*.log; do
  awk '/Compiling entry/ { ref = /_reference/ } !ref' "$f" |
    grep -qiE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill' && echo "PTXAS $f"
done
dense=${DENSE:-3000x3000x3008,3000x3000x3000,256x22016x4096,512x11008x4096,3072x3072x3072,4096x4096x4096,16x4096x4096}
fp8=${FP8:-3072x3072x3072,256x22016x4096,512x11008x4096,4096x4096x4096}
epi=${EPI:-3000x3000x3008,512x11008x4096}
kinds=${KINDS:-nt tn fp8 epi} # which of the four run (all four are built)
for round in 1 2; do
  for mode in off auto; do
    env=()
    [[ $mode == off ]] && env=(TAWA_NARROW=off)
    for b in nt tn; do
      [[ " $kinds " == *" $b "* ]] || continue
      env "${env[@]}" timeout 150 build/wave/$b --label "$b" --shapes "$dense" --time --pairs 20 \
        --warmup 3 --json "$out/$b-$mode-$round.json" >"$out/$b-$mode-$round.log" 2>&1 ||
        echo "RUN FAIL $b $mode $round"
    done
    for b in fp8 epi; do
      [[ " $kinds " == *" $b "* ]] || continue
      shapes=$fp8
      [[ $b == epi ]] && shapes=$epi
      env "${env[@]}" timeout 150 build/wave/$b --label "$b" --shapes "$shapes" --time \
        --json "$out/$b-$mode-$round.json" >"$out/$b-$mode-$round.log" 2>&1 ||
        echo "RUN FAIL $b $mode $round"
    done
  done
done
# The narrow kernel walking several tiles per CTA under the sanitizer:
# 2048 x 2304 is 144 wide tiles, which run as 192 of 128 x 192.
if [[ -n ${SANITIZE:-} ]]; then
  for tool in racecheck synccheck; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 1 build/wave/nt --label nt \
      --shapes 2048x2304x256 >"$out/nt-$tool.log" 2>&1 || echo "SANITIZER FAIL $tool"
    tail -n 3 "$out/nt-$tool.log"
  done
fi
grep -h "FAIL" "$out"/*.log | head
python3 - "$out" <<'PY' | tee "$out/table.txt"
import glob, json, os, sys
rows = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    kind, mode, rnd = os.path.basename(path)[:-5].split("-")
    doc = json.load(open(path))
    for r in doc["results"] if isinstance(doc, dict) else doc:
        key = (kind + "".join("/" + r[f] for f in ("epilogue", "gemm") if r.get(f)),
               r["shape"])
        cell = (f"{r['ratio']:.3f}/{1e3 * r['ms']:.1f}" if r.get("ratio")
                else ("FAIL" if not r.get("pass", True) else "-"))
        rows.setdefault(key, {})[f"{mode}{rnd}"] = cell
cols = ["off1", "auto1", "off2", "auto2"]
print(f"{'gemm':28} {'shape':16} " + " ".join(f"{c:>13}" for c in cols))
for (k, s), m in sorted(rows.items()):
    print(f"{k:28} {s:16} " + " ".join(f"{m.get(c, ''):>13}" for c in cols))
PY
tar -C "$(dirname "$out")" -czf "$out.tar.gz" "$(basename "$out")" && rm -rf "$out"
