#!/usr/bin/env bash
# On the GPU machine, with build/bench/gemm-check-bf16 (built here where it
# is missing, as narrow-widths/run.sh does): launches of 67 to 132 wide
# tiles, where the wide kernel leaves SMs idle and 128 x 128 tiles need a
# second wave, as the launcher chooses and with the K split forced
# (TAWA_SPLIT_TAIL=force), on the wide kernel and on the 128 x 128 one
# (TAWA_NARROW=128). Each checked and timed against cuBLAS, two processes
# each; our median times (us) are printed last.
#
# usage: bash results/h100/narrow-widths/split.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
out=${1:?usage: split.sh OUT_DIR}
mkdir -p "$out" build/bench
bin=build/bench/gemm-check-bf16
[[ -x $bin ]] || nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
  -Iexamples/gemm -DGEMM_ELEMENT=bf16 gen/gemm.ws.cu examples/gemm/main.cu -o $bin \
  -lcublas >"$out/build.log" 2>&1
shapes=${SHAPES:-1024x2560x1024,1024x2560x2048,1024x2560x4096,512x6144x1024,768x4096x2048,1024x3072x4096,1024x4096x1024,1024x4096x2048,1024x4096x8192}
rc=0
for rep in 1 2; do
  for run in "auto::" "split::force" "n128:128:" "n128split:128:force"; do
    IFS=: read -r label narrow split <<<"$run"
    env ${narrow:+TAWA_NARROW=$narrow} ${split:+TAWA_SPLIT_TAIL=$split} timeout 200 $bin \
      --label $label --shapes "$shapes" --time --pairs 40 --json "$out/$label-$rep.json" \
      >"$out/$label-$rep.log" 2>&1 || rc=1
  done
done
echo "== FAIL lines: $(cat "$out"/*.log | grep -c FAIL)"
python3 - "$out" <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
t = {}
for f in glob.glob(f"{out}/*.json"):
    d = json.load(open(f))
    for r in d["results"]:
        e = t.setdefault(r["shape"], {})
        e.setdefault(d["label"], []).append(r["ms"] * 1e3 if r["pass"] else float("nan"))
        e.setdefault("cublas", []).append(r["cublas_ms"] * 1e3)
labels = ("auto", "split", "n128", "n128split", "cublas")
print(f"{'shape':<16}{'tiles':>6}" + "".join(f"{l:>10}" for l in labels))
for s in sorted(t, key=lambda s: [int(x) for x in s.split('x')]):
    m, n, k = map(int, s.split('x'))
    print(f"{s:<16}{-(-m // 128) * -(-n // 256):>6}" +
          "".join(f"{statistics.median(t[s][l]):10.1f}" if l in t[s] else f"{'':>10}" for l in labels))
json.dump(t, open(f"{out}/split.json", "w"), indent=1)
PY
exit $rc
