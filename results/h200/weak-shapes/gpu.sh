#!/usr/bin/env bash
# The launcher's choices on the shapes below 0.9 of cuBLAS: each shape timed
# against cuBLAS in one process per choice, the launcher's own choice
# ("default") and each run-time override of it (TAWA_NARROW, TAWA_SPLIT_TAIL,
# TAWA_CLUSTER, TAWA_PITCH_COPY, TAWA_ROW_PARTS; tawa/runtime/); CHOICES
# lists them, a choice of several settings joined by "+".
#   bash results/h200/weak-shapes/gpu.sh OUT GEN_DIR [layout...]
# GEN_DIR: what bench/sweep-rewrite.sh wrote; with OLD_GEN set, the same
# from an earlier rewrite (its include/ in OLD_GEN/include) runs as the
# choice "old". Prints a table of our times
# (us) per choice and the default's ratio cuBLAS / ours, last.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT GEN_DIR [layout...]}
gen=${2:?}
shift 2
layouts=("${@:-nt}")
mkdir -p "$out" build/weak
b=build/weak
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude)
for l in "${layouts[@]}"; do
  src=gemm-$l.ws.cu ex=gemm-layouts
  [[ $l == nt ]] && src=gemm.ws.cu ex=gemm
  nvcc "${flags[@]}" -Iexamples/$ex -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=$l "$gen/$src" \
    examples/gemm/main.cu -o $b/$l -lcublas -lcublasLt -lcuda >"$out/build-$l.log" 2>&1 &
  [[ -n ${OLD_GEN:-} ]] && nvcc -I"$OLD_GEN/include" "${flags[@]}" -Iexamples/$ex -DGEMM_ELEMENT=bf16 \
    -DGEMM_LAYOUT=$l "$OLD_GEN/$src" examples/gemm/main.cu -o $b/$l-old -lcublas -lcublasLt -lcuda \
    >"$out/build-$l-old.log" 2>&1 &
done
wait
shapes=${SHAPES:-16x4096x4096,80x4096x4096,128x4096x4096,192x4096x4096,320x4096x4096,160x8192x8192,1000x1000x1000,1008x1008x1008,1536x1536x1536,3000x3000x3000,3008x3008x3008,4096x128x4096,4096x64x4096}
choices=${CHOICES:-default NARROW=off NARROW=64 NARROW=128 NARROW=192 SPLIT_TAIL=off SPLIT_TAIL=force CLUSTER=off CLUSTER=force PITCH_COPY=force ROW_PARTS=off ROW_PARTS=force}
for l in "${layouts[@]}"; do
  for c in $choices; do
    env=() f=${c//=/-}
    f=${f//+/.}
    if [[ $c != default ]]; then
      IFS=+ read -ra set <<<"$c"
      for v in "${set[@]}"; do env+=("TAWA_$v"); done
    fi
    bin=$b/$l
    [[ $c == old ]] && env=() bin=$b/$l-old
    env "${env[@]}" timeout 200 $bin --label "$l-$c" --shapes "$shapes" --time \
      --pairs ${PAIRS:-20} --warmup 3 --json "$out/${l}_$f.json" >"$out/${l}_$f.log" 2>&1
  done
done
grep -h FAIL "$out"/*.log | head
python3 - "$out" $choices <<'PY' | tee "$out/table.txt"
import glob, json, os, sys
out, choices = sys.argv[1], sys.argv[2:]
rows = {}
for path in glob.glob(os.path.join(out, "*_*.json")):
    layout, choice = os.path.basename(path)[:-5].split("_", 1)
    choice = "+".join(v.replace("-", "=", 1) for v in choice.split("."))
    for r in json.load(open(path))["results"]:
        ok = r["pass"] and r.get("ms")
        rows.setdefault((layout, r["shape"]), {})[choice] = (
            (r["ms"] * 1e3, r["cublas_ms"] * 1e3) if ok else None)
short = [c.replace("NARROW=", "N").replace("SPLIT_TAIL=", "ST").replace("CLUSTER=", "CL")
         .replace("PITCH_COPY=", "PC").replace("ROW_PARTS=", "RP").replace("ROW_CLUSTER=", "RC").replace("+", "")
         .replace("force", "f") for c in choices]
print(f"{'l':2} {'shape':15} {'cuB':>6} " + " ".join(f"{s[:7]:>7}" for s in short) + "  default/cuB best/cuB")
for (l, s), m in sorted(rows.items(), key=lambda kv: (kv[0][0], [int(x) for x in kv[0][1].split('x')])):
    cub = min(v[1] for v in m.values() if v)
    cells = [f"{m[c][0]:7.1f}" if m.get(c) else f"{'FAIL':>7}" for c in choices]
    best = min(v[0] for v in m.values() if v)
    d = m.get("default")
    print(f"{l:2} {s:15} {cub:6.1f} " + " ".join(cells) +
          f"  {d[1] / d[0] if d else 0:.3f} {cub / best:.3f}")
print("\ncuBLAS / ours, each in its own process")
print(f"{'l':2} {'shape':15} " + " ".join(f"{s[:7]:>7}" for s in short))
for (l, s), m in sorted(rows.items(), key=lambda kv: (kv[0][0], [int(x) for x in kv[0][1].split('x')])):
    print(f"{l:2} {s:15} " + " ".join(f"{m[c][1] / m[c][0]:7.3f}" if m.get(c) else f"{'FAIL':>7}"
                                     for c in choices))
PY
(cd "$out" && tar -czf runs.tgz ./*.json ./*.log && rm -f ./*.json ./*.log)
