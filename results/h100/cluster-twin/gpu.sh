#!/usr/bin/env bash
# The cluster twin (choose_cluster, tawa/runtime/schedule.cuh) measured: the
# rewritten bf16 NT, TN and NN GEMMs, fp8 and the fused epilogues, on shapes
# whose operand rows are an odd number of 16 bytes apart and on aligned
# controls. Each shape is checked, then timed against cuBLAS (cuBLASLt for
# fp8 and the epilogues) in one process, with the twin never run
# (TAWA_CLUSTER=off: what every launch ran before), as the launcher chooses,
# and always run (TAWA_CLUSTER=force, which also checks the twin on every
# shape), twice in turn. `c192` is examples/gemm as 128 x 192 tiles with
# cluster(2), run wide (TAWA_NARROW=off), for comparison.
#   bash results/h100/cluster-twin/gpu.sh OUT [GEN_DIR]
# GEN_DIR (default gen/sweep) as bench/sweep-rewrite.sh writes it, with
# GEN_DIR/c192.ws.cu. SANITIZE=1 adds racecheck and synccheck of the twins.
# Writes OUT.tar.gz; the table is printed last.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT [GEN_DIR]}
gen=${2:-gen/sweep}
mkdir -p "$out" build/ct
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Xptxas -v)
build() { # name, include dir, layout, source
  nvcc "${flags[@]}" -I"$2" -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT="$3" "$4" examples/gemm/main.cu \
    -o "build/ct/$1" -lcublas >"$out/build-$1.log" 2>&1 || echo "BUILD FAIL $1"
}
build nt examples/gemm nt "$gen/gemm.ws.cu" &
build tn examples/gemm-layouts tn "$gen/gemm-tn.ws.cu" &
build nn examples/gemm-layouts nn "$gen/gemm-nn.ws.cu" &
build c192 examples/gemm nt "$gen/c192.ws.cu" &
nvcc "${flags[@]}" -Iexamples/gemm-fp8 "$gen/gemm_fp8.ws.cu" examples/gemm-fp8/main.cu \
  -o build/ct/fp8 -lcublas -lcublasLt -lcuda >"$out/build-fp8.log" 2>&1 || echo "BUILD FAIL fp8" &
nvcc "${flags[@]}" -Iexamples/gemm-epilogue "$gen/epilogue.ws.cu" examples/gemm-epilogue/main.cu \
  -o build/ct/epi -lcublas -lcublasLt -lcuda >"$out/build-epi.log" 2>&1 || echo "BUILD FAIL epi" &
wait
for f in "$out"/build-*.log; do
  awk '/Compiling entry/ { ref = /_reference/ } !ref' "$f" |
    grep -qiE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill' && echo "PTXAS $f"
done
# bf16 K-major rows are odd where K = 8 (mod 16); MN-major rows where M or N is.
nt=${NT:-3000x3000x3000,2000x2000x2008,1000x1000x1000,1536x1536x1544,2000x3000x2008,2056x2056x2056,1280x1280x1288,2560x2560x2568,3000x3000x3008,4096x4096x4096,3000x5000x7000}
tn=${TN:-3000x3000x3008,2008x2008x2048,1000x1000x1024,4096x4096x4096}
nn=${NN:-3000x3000x3000,2008x2008x2008,4096x4096x4096}
c192=${C192:-3000x3000x3000,2000x2000x2008,1536x1536x1544}
# fp8 rows are odd where K = 16 (mod 32).
fp8=${FP8:-3072x3072x3088,2048x2048x2064,4096x4096x4096}
epi=${EPI:-3000x3000x3000,2000x2000x2008}
for round in 1 2; do
  for mode in off auto force; do
    env=(TAWA_CLUSTER=$mode)
    [[ $mode == auto ]] && env=()
    for b in nt tn nn; do
      timeout 150 env "${env[@]}" build/ct/$b --label "$b" --shapes "${!b}" --time --pairs 20 \
        --warmup 3 --json "$out/$b-$mode-$round.json" >"$out/$b-$mode-$round.log" 2>&1 ||
        echo "RUN FAIL $b $mode $round"
    done
    for b in fp8 epi; do
      timeout 150 env "${env[@]}" build/ct/$b --label "$b" --shapes "${!b}" --time \
        --json "$out/$b-$mode-$round.json" >"$out/$b-$mode-$round.log" 2>&1 ||
        echo "RUN FAIL $b $mode $round"
    done
  done
  timeout 100 env TAWA_NARROW=off build/ct/c192 --label c192 --shapes "$c192" --time --pairs 20 \
    --warmup 3 --json "$out/c192-wide-$round.json" >"$out/c192-wide-$round.log" 2>&1 ||
    echo "RUN FAIL c192 $round"
done
# The twins under the sanitizer, forced, on a launch of three tile rows (the
# last cluster holds a tile past the grid): the wide twins of NT and TN, and
# the 128 x 192 twins of NT, TN and NN (B split 1 + 2 boxes).
if [[ -n ${SANITIZE:-} ]]; then
  for run in "nt off" "nt 192" "tn off" "tn 192" "nn 192"; do
    set -- $run
    for tool in racecheck synccheck; do
      TAWA_CLUSTER=force TAWA_NARROW=$2 timeout 200 compute-sanitizer --tool $tool \
        --error-exitcode 1 build/ct/$1 --label $1 --shapes 384x512x264 \
        >"$out/$1-$2-$tool.log" 2>&1 || echo "SANITIZER FAIL $1 $2 $tool"
      tail -n 2 "$out/$1-$2-$tool.log"
    done
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
cols = ["off1", "auto1", "force1", "off2", "auto2", "force2", "wide1", "wide2"]
print(f"{'gemm':26} {'shape':16} " + " ".join(f"{c:>12}" for c in cols))
for (k, s), m in sorted(rows.items()):
    print(f"{k:26} {s:16} " + " ".join(f"{m.get(c, ''):>12}" for c in cols))
PY
tar -C "$(dirname "$out")" -czf "$out.tar.gz" "$(basename "$out")" && rm -rf "$out"
