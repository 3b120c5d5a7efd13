#!/usr/bin/env bash
# Row parts forced (TAWA_ROW_PARTS=force: where the choice then takes a
# kernel without row parts, whole tiles as without) and off, each with edge
# boxes on and off (TAWA_EDGE_BOXES), bf16 NT and NN, on the builds of
# gpu.sh's build step (build/row-parts). Prints our times (us) and cuBLAS's.
#   bash results/h100/row-parts/edge.sh OUT
set -uo pipefail
out=$1
mkdir -p "$out"
s=${SHAPES:-16x4096x4096,48x4096x4096,16x8192x8192,48x4096x11008,80x4096x4096,96x4096x4096,112x4096x4096,144x4096x4096,160x4096x4096,176x4096x4096,192x4096x4096,208x4096x4096,240x4096x4096,160x8192x8192,192x8192x8192,160x4096x11008,80x11008x4096,320x4096x4096,448x4096x4096}
for l in nt nn; do
for e in on off; do
  for rp in force off; do
    TAWA_EDGE_BOXES=$e TAWA_ROW_PARTS=$rp timeout 120 build/row-parts/$l --label "$l-e$e-$rp" --shapes $s --time --pairs 20 --warmup 3 \
      --json "$out/$l-e$e-$rp.json" > "$out/$l-e$e-$rp.log" 2>&1
  done
done
done
grep -h FAIL "$out"/*.log | head
python3 - "$out" <<'PY'
import json, sys, os
cols = ["eon-force", "eoff-force", "eon-off", "eoff-off"]
for l in ("nt", "nn"):
    t = {}
    for c in cols:
        for r in json.load(open(os.path.join(sys.argv[1], f"{l}-{c}.json")))["results"]:
            t.setdefault(r["shape"], {})[c] = (r["ms"] * 1e3 if r["pass"] else None, r["cublas_ms"] * 1e3)
    print(f"{l:4} shape         " + " ".join(f"{c:>10}" for c in cols) + "   cuBLAS")
    for s, m in t.items():
        print(f"{l:4} {s:13} " + " ".join(f"{m[c][0]:10.1f}" if m[c][0] else "      FAIL" for c in cols) + f" {m[cols[0]][1]:8.1f}")
PY
