#!/usr/bin/env bash
# Which kernel is fastest for skinny and medium launches: the rewritten bf16
# GEMMs (NT and NN) checked and timed against cuBLAS in one process per
# kernel choice, with the launcher's own choice (default) and each kernel
# forced through TAWA_NARROW (off: the wide 128 x 256 kernel; 64, 128, 192:
# the narrow kernels of that many columns). CHOICES overrides the list; an
# entry NAME=VALUE sets that variable instead (TAWA_SPLIT_TAIL=off, say).
#   bash results/h200/skinny-choice/gpu.sh OUT [GEN_DIR]
# GEN_DIR (default gen/skinny) holds gemm.ws.cu and gemm-nn.ws.cu from
# tawa-rewrite. The results are packed into OUT.tar.gz; the table of our
# times (us) per choice is printed last.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: gpu.sh OUT [GEN_DIR]}
gen=${2:-gen/skinny}
mkdir -p "$out" build/skinny-choice
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude)
nvcc "${flags[@]}" -Iexamples/gemm -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt "$gen/gemm.ws.cu" \
  examples/gemm/main.cu -o build/skinny-choice/nt -lcublas >"$out/build-nt.log" 2>&1 &
nvcc "${flags[@]}" -Iexamples/gemm-layouts -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nn "$gen/gemm-nn.ws.cu" \
  examples/gemm/main.cu -o build/skinny-choice/nn -lcublas >"$out/build-nn.log" 2>&1 &
wait
shapes=${SHAPES:-16x4096x4096,64x4096x4096,128x4096x4096,192x4096x4096,256x4096x4096,384x4096x4096,32x11008x4096,64x4096x11008,4096x16x4096,4096x128x4096,4096x192x4096,8192x256x8192,1000x1000x1000,1536x1536x1536,2048x2048x2048,3000x3000x3000}
read -r -a choices <<<"${CHOICES:-default off 64 128 192}"
for choice in "${choices[@]}"; do
  env=()
  if [[ $choice == *=* ]]; then
    env=("$choice")
  elif [[ $choice != default ]]; then
    env=(TAWA_NARROW=$choice)
  fi
  for l in nt nn; do
    env "${env[@]}" timeout 120 build/skinny-choice/$l --label "$l-$choice" --shapes "$shapes" \
      --time --pairs ${PAIRS:-30} --warmup 3 --json "$out/$l-$choice.json" >"$out/$l-$choice.log" 2>&1
  done
done
grep -h "FAIL" "$out"/*.log
python3 - "$out" "${choices[*]}" <<'PY' | tee "$out/table.txt"
import glob, json, os, sys
rows, base = {}, {}
for path in glob.glob(os.path.join(sys.argv[1], "*.json")):
    doc = json.load(open(path))
    layout, choice = os.path.basename(path)[:-5].split("-", 1)
    for r in doc["results"]:
        key = (layout, r["shape"])
        ok = r["pass"] and r.get("ms")
        rows.setdefault(key, {})[choice] = r["ms"] * 1e3 if ok else None
        if ok:
            base.setdefault(key, []).append(r["cublas_ms"] * 1e3)
choices = sys.argv[2].split()
print(f"{'gemm':4} {'shape':16} " + " ".join(f"{c:>8}" for c in choices) + f" {'cuBLAS':>8}")
for (l, s), m in sorted(rows.items(), key=lambda kv: (kv[0][0], [int(x) for x in kv[0][1].split('x')])):
    cells = [f"{m[c]:8.1f}" if m.get(c) else f"{'-':>8}" for c in choices]
    b = sorted(base.get((l, s), [0]))
    print(f"{l:4} {s:16} " + " ".join(cells) + f" {b[len(b)//2]:8.1f}")
PY
tar -C "$(dirname "$out")" -czf "$out.tar.gz" "$(basename "$out")" && rm -rf "$out"
