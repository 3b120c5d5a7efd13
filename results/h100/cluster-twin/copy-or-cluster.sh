#!/usr/bin/env bash
# Large launches with operand rows an odd number of 16 bytes apart: the
# aligned copy of the operands against the cluster twin reading them in
# place, bf16 NT and TN, each checked, then timed against cuBLAS in one
# process, twice in turn. CLUSTER_MODE=env (copy1/, the tool of 31b717f,
# which copied where odd_pitch_copy_pays and ran the twins only below that):
# `cluster` sets TAWA_PITCH_COPY=off, so the launcher runs the twin; the
# default (copy2/, the committed tool, which runs the twin instead of the
# copy): `copy` sets TAWA_CLUSTER=off, so the wide kernel copies.
#   bash results/h100/cluster-twin/copy-or-cluster.sh OUT [GEN_DIR]
# Writes OUT.tar.gz; the table is printed last.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
out=${1:?usage: copy-or-cluster.sh OUT [GEN_DIR]}
gen=${2:-gen/sweep}
mkdir -p "$out" build/cc
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Xptxas -v)
nvcc "${flags[@]}" -Iexamples/gemm -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt "$gen/gemm.ws.cu" \
  examples/gemm/main.cu -o build/cc/nt -lcublas >"$out/build-nt.log" 2>&1 || echo "BUILD FAIL nt" &
nvcc "${flags[@]}" -Iexamples/gemm-layouts -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=tn "$gen/gemm-tn.ws.cu" \
  examples/gemm/main.cu -o build/cc/tn -lcublas >"$out/build-tn.log" 2>&1 || echo "BUILD FAIL tn" &
wait
shapes=${SHAPES:-5000x5000x5000,3000x5000x7000,10000x10000x10008,4000x4000x4008,8192x8192x8200}
for round in 1 2; do
  for mode in copy cluster; do
    env=()
    if [[ ${CLUSTER_MODE:-} == env ]]; then
      [[ $mode == cluster ]] && env=(TAWA_PITCH_COPY=off)
    else
      [[ $mode == copy ]] && env=(TAWA_CLUSTER=off)
    fi
    for b in nt tn; do
      timeout 200 env "${env[@]}" build/cc/$b --label "$b" --shapes "$shapes" --time --pairs 20 \
        --warmup 3 --json "$out/$b-$mode-$round.json" >"$out/$b-$mode-$round.log" 2>&1 ||
        echo "RUN FAIL $b $mode $round"
    done
  done
done
grep -h "FAIL" "$out"/*.log | head
python3 - "$out" <<'PY' | tee "$out/table.txt"
import glob, json, os, sys
rows = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    kind, mode, rnd = os.path.basename(path)[:-5].split("-")
    doc = json.load(open(path))
    for r in doc["results"] if isinstance(doc, dict) else doc:
        cell = (f"{r['ratio']:.3f}/{1e3 * r['ms']:.1f}" if r.get("ratio")
                else ("FAIL" if not r.get("pass", True) else "-"))
        rows.setdefault((kind, r["shape"]), {})[f"{mode}{rnd}"] = cell
cols = ["copy1", "cluster1", "copy2", "cluster2"]
print(f"{'gemm':6} {'shape':20} " + " ".join(f"{c:>13}" for c in cols))
for (k, s), m in sorted(rows.items()):
    print(f"{k:6} {s:20} " + " ".join(f"{m.get(c, ''):>13}" for c in cols))
PY
tar -C "$(dirname "$out")" -czf "$out.tar.gz" "$(basename "$out")" && rm -rf "$out"
