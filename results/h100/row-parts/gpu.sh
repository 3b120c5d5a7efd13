#!/usr/bin/env bash
# Row parts of the few-rows twins (TileMerge::RowParts, tawa/TileShape.h):
# launches of a few rows of tiles whose last row is at most half stored run
# the narrow kernels' few-rows twins over every 64-row part of the tiles
# instead of the ping-pong twins' whole 128-row tiles.
#   bash results/h100/row-parts/gpu.sh OUT GEN_DIR OLD_GEN build|time|check...
# GEN_DIR: what bench/sweep-rewrite.sh wrote; OLD_GEN the same from the
# rewrite before the row parts, with that commit's include/ beside it
# (OLD_GEN/include, which its builds read first). "build" compiles the bf16
# NT, NN, TN and TT checks of both, the epilogue and the fp8 checks of
# GEN_DIR into build/row-parts (ptxas -v: spills and warnings counted);
# "time" checks and times the four layouts against cuBLAS in one process
# per build and choice (old; new with the launcher's rule; new with
# TAWA_ROW_PARTS=off) and prints the table of our times (us), ours / cuBLAS
# for old and new, last; "check" runs ragged shapes with the row parts
# forced, the narrow kernels forced (TAWA_NARROW=64, 128) and the split tail
# on its own and forced, then compute-sanitizer on one shape.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN_DIR OLD_GEN build|time|check...}
gen=${2:?} old=${3:?}
mkdir -p "$out" build/row-parts
b=build/row-parts
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Xptxas -v)
libs=(-lcublas -lcublasLt -lcuda)
for step in "${@:4}"; do
case $step in
build)
  for l in nt nn tn tt; do
    src=gemm-$l.ws.cu ex=gemm-layouts
    [[ $l == nt ]] && src=gemm.ws.cu ex=gemm
    nvcc "${flags[@]}" -Iexamples/$ex -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=$l "$gen/$src" \
      examples/gemm/main.cu -o $b/$l "${libs[@]}" >"$out/build-$l.log" 2>&1 &
    nvcc -I"$old/include" "${flags[@]}" -Iexamples/$ex -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=$l \
      "$old/$src" examples/gemm/main.cu -o $b/$l-old "${libs[@]}" >"$out/build-$l-old.log" 2>&1 &
  done
  nvcc "${flags[@]}" -Iexamples/gemm-epilogue "$gen/epilogue.ws.cu" examples/gemm-epilogue/main.cu \
    -o $b/epilogue "${libs[@]}" >"$out/build-epilogue.log" 2>&1 &
  nvcc "${flags[@]}" -Iexamples/gemm-fp8 "$gen/gemm_fp8.ws.cu" examples/gemm-fp8/main.cu \
    -o $b/fp8 "${libs[@]}" >"$out/build-fp8.log" 2>&1 &
  wait
  for f in "$out"/build-*.log; do
    bad=$(awk '/Compiling entry/ { ref = /_reference/ } !ref' "$f" |
      grep -ciE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill|error:')
    echo "$(basename "$f"): $bad warnings, spills or errors"
  done
  ls $b
  ;;
time)
  shapes=${SHAPES:-80x4096x4096,96x4096x4096,112x4096x4096,144x4096x4096,160x4096x4096,176x4096x4096,192x4096x4096,208x4096x4096,240x4096x4096,320x4096x4096,448x4096x4096,192x2048x2048,192x4096x11008,160x4096x11008,192x11008x4096,160x8192x8192,192x8192x8192,96x28672x4096,80x11008x4096,16x4096x4096,48x4096x11008,1000x1000x1000,4096x128x4096}
  for l in nt nn tn tt; do
    timeout 150 $b/$l-old --label "$l-old" --shapes "$shapes" --time --pairs ${PAIRS:-20} \
      --warmup 3 --json "$out/$l-old.json" >"$out/$l-old.log" 2>&1
    for choice in default off; do
      TAWA_ROW_PARTS=${choice/default/} timeout 150 $b/$l --label "$l-$choice" --shapes "$shapes" \
        --time --pairs ${PAIRS:-20} --warmup 3 --json "$out/$l-$choice.json" >"$out/$l-$choice.log" 2>&1
    done
  done
  grep -h FAIL "$out"/*.log | head
  python3 - "$out" <<'PY' | tee "$out/table.txt"
import glob, json, math, os, sys
rows, base = {}, {}
for path in glob.glob(os.path.join(sys.argv[1], "*.json")):
    layout, choice = os.path.basename(path)[:-5].split("-", 1)
    for r in json.load(open(path))["results"]:
        key = (layout, r["shape"])
        ok = r["pass"] and r.get("ms")
        rows.setdefault(key, {})[choice] = (r["ms"] * 1e3, r["cublas_ms"] * 1e3) if ok else None
choices = ["old", "default", "off"]
print(f"{'gemm':4} {'shape':16} " + " ".join(f"{c:>8}" for c in choices) + f" {'old/cuB':>8} {'new/cuB':>8}")
logs = {"old": [], "default": []}
for (l, s), m in sorted(rows.items(), key=lambda kv: (kv[0][0], [int(x) for x in kv[0][1].split('x')])):
    cells = [f"{m[c][0]:8.1f}" if m.get(c) else f"{'FAIL':>8}" for c in choices]
    ratios = []
    for c in ("old", "default"):
        if m.get(c):
            ratios.append(f"{m[c][1] / m[c][0]:8.3f}")
            logs[c].append(math.log(m[c][1] / m[c][0]))
        else:
            ratios.append(f"{'-':>8}")
    print(f"{l:4} {s:16} " + " ".join(cells) + " " + " ".join(ratios))
for c, v in logs.items():
    if v:
        print(f"geomean cuBLAS/ours ({c}): {math.exp(sum(v) / len(v)):.3f} over {len(v)}, min {math.exp(min(v)):.3f}")
PY
  ;;
check)
  ragged=${RAGGED:-65x4096x4096,100x1000x333,129x5000x3001,191x2048x2048,192x128x64,200x4000x1000,255x512x104,300x96x136,330x4096x4160,65x300x65,450x1000x200,130x8192x1088}
  for n in 64 128; do
    for sp in auto force; do
      for x in nt nn tn tt epilogue fp8; do
        s=$ragged
        [[ $x == fp8 ]] && s=80x4096x4096,192x1008x3008,144x2000x512,208x4096x1024
        [[ -x $b/$x ]] && TAWA_ROW_PARTS=force TAWA_NARROW=$n TAWA_SPLIT_TAIL=$sp timeout 100 \
          $b/$x --label "n$n-$sp-$x" --shapes "$s" 2>&1 | grep -E "PASS|FAIL|rror" >>"$out/forced.log"
      done
    done
  done
  echo "forced: $(grep -c PASS "$out/forced.log") PASS, $(grep -c FAIL "$out/forced.log") FAIL"
  grep -E "FAIL|rror" "$out/forced.log" | head
  for tool in memcheck racecheck synccheck; do
    TAWA_ROW_PARTS=force timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 $b/nt \
      --label san --shapes 191x1000x3001 >"$out/sanitizer-$tool.log" 2>&1
    echo "sanitizer $tool: exit $? $(grep -cE '(ERROR|RACECHECK) SUMMARY: 0 (errors|hazards)' "$out/sanitizer-$tool.log") clean summary"
  done | tee "$out/sanitizer.txt"
  ;;
esac
done
