#!/usr/bin/env bash
# On the GPU machine, with build/bench/gemm-check-{bf16,fp16} as
# bench/gemm-bench.sh builds them from gen/gemm.ws.cu and gen/gemm-f16.ws.cu
# (built here where they are missing, or with REBUILD=1): the
# example's two narrow kernels (128 x 64 and 128 x 128 CTA tiles) beside the
# 128 x 256 one, bf16 and fp16.
#   1. Launches of 8 to 128 wide tiles, each checked and timed against cuBLAS
#      in four processes: as the launcher chooses (tawa::rt::choose_narrow),
#      and with TAWA_NARROW=off (the wide kernel), =64 and =128.
#   2. Each narrow kernel forced on launches of many tiles, ragged ones and
#      split tails included.
#   3. racecheck and synccheck on the 128-column kernel forced, and on
#      launches as the launcher chooses: 128 x 128 tiles (256x5120x4096) and
#      128 x 64 tiles split evenly from the start (128x2048x8192,
#      256x1024x2048), and the wide kernel split so (256x2048x8192).
# Logs and JSON go to OUT_DIR; the table of our times (us) is printed last.
#
# usage: bash results/h100/narrow-widths/run.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
out=${1:?usage: run.sh OUT_DIR}
mkdir -p "$out"
small=${SHAPES:-1000x1016x512,512x512x512,128x4096x4096,128x2048x8192,256x4096x4096,512x2048x2048,1024x1024x1024,1024x1280x2048,256x5120x4096,1024x1792x2048,256x8192x1024,1024x2048x2048,512x4096x8192,1024x2560x2048,512x6144x1024,1024x4096x2048}
mkdir -p build/bench
for v in bf16 fp16; do
  ex=gemm && [[ $v == fp16 ]] && ex=gemm-f16
  [[ -x build/bench/gemm-check-$v && -z ${REBUILD:-} ]] ||
    nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/$ex \
      -DGEMM_ELEMENT=$v gen/$ex.ws.cu examples/gemm/main.cu -o build/bench/gemm-check-$v \
      -lcublas >"$out/build-$v.log" 2>&1 &
done
wait
rc=0
for v in bf16 fp16; do
  bin=build/bench/gemm-check-$v
  for mode in auto off 64 128; do
    TAWA_NARROW=$mode timeout 200 $bin --label "$v-$mode" --shapes "$small" --time \
      --pairs 40 --json "$out/$v-$mode.json" >"$out/$v-$mode.log" 2>&1 || rc=1
  done
  for w in 64 128; do
    TAWA_NARROW=$w timeout 200 $bin --label "$v-force$w" \
      --shapes 4096x4096x4096,8192x8192x512,1792x2560x320,8000x8064x4000,300x201x128 \
      >"$out/$v-force$w.log" 2>&1 || rc=1
  done
  for tool in racecheck synccheck; do
    TAWA_NARROW=128 timeout 300 compute-sanitizer --tool $tool $bin \
      --label "$v-force128" --shapes 1792x2560x320,300x201x128,200x136x77 \
      >"$out/$v-force128-$tool.log" 2>&1 || rc=1
    timeout 300 compute-sanitizer --tool $tool $bin --label "$v-split" \
      --shapes 256x5120x4096,128x2048x8192,256x1024x2048 >"$out/$v-split-$tool.log" 2>&1 || rc=1
    TAWA_NARROW=off timeout 300 compute-sanitizer --tool $tool $bin --label "$v-wide-split" \
      --shapes 256x2048x8192 >"$out/$v-wide-split-$tool.log" 2>&1 || rc=1
  done
done
echo "== FAIL lines: $(cat "$out"/*.log | grep -c FAIL)"
grep -E "RACECHECK SUMMARY|ERROR SUMMARY" "$out"/*check.log
python3 - "$out" <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
t = {}
for f in glob.glob(f"{out}/*.json"):
    d = json.load(open(f))
    v, mode = d["label"].split("-")
    for r in d["results"]:
        e = t.setdefault((v, r["shape"]), {})
        e[mode] = r["ms"] * 1e3 if r["pass"] else float("nan")
        e.setdefault("cublas", []).append(r["cublas_ms"] * 1e3)
print(f"{'elem':<5} {'shape':<16}{'tiles':>6}{'auto':>8}{'off':>8}{'64':>8}{'128':>8}{'cuBLAS':>8}  auto/cuBLAS  auto/best")
rows = []
for (v, s) in sorted(t, key=lambda k: (k[0], [int(x) for x in k[1].split('x')])):
    m, n, k = map(int, s.split('x'))
    tiles = -(-m // 128) * -(-n // 256)
    e = t[(v, s)]
    cub = statistics.median(e["cublas"])
    best = min(e.get(x, 1e9) for x in ("off", "64", "128"))
    print(f"{v:<5} {s:<16}{tiles:>6}" + "".join(f"{e.get(x, float('nan')):8.1f}" for x in ("auto", "off", "64", "128"))
          + f"{cub:8.1f}  {cub / e['auto']:11.3f}  {best / e['auto']:9.3f}")
    rows.append(dict(element=v, shape=s, wide_tiles=tiles, cublas_us=cub,
                     **{f"{x}_us": e.get(x) for x in ("auto", "off", "64", "128")}))
json.dump(rows, open(f"{out}/narrow-widths.json", "w"), indent=1)
PY
exit $rc
