#!/usr/bin/env bash
# On the GPU machine: the example's narrow kernel of 128 x 192 CTA tiles
# across the launch's columns, beside the 128 x 64, 128 x 128 and 128 x 256
# ones, bf16 and fp16, with build/bench/gemm-check-{bf16,fp16} built from
# gen/gemm.ws.cu and gen/gemm-f16.ws.cu (here where missing, or REBUILD=1).
#   1. Launches of 8 to 128 wide (128 x 256) tiles, each checked and timed
#      against cuBLAS in one process per mode: as the launcher chooses
#      (tawa::rt::choose_narrow), and with TAWA_NARROW=off (the wide kernel),
#      =128 and =192.
#   2. The 192-column kernel forced on launches of many tiles, ragged ones,
#      a split tail and an unaligned C included (checked, not timed).
#   3. bf16 only: the example's 192-column variant (gen/variants/n192.ws.cu,
#      its own 128 x 192 tile: 4 stages, the whole tile staged at once)
#      against the narrow kernel (5 stages, one chunk staged at a time) at
#      the launches of 67 to 99 wide tiles.
# Logs and JSON go to OUT_DIR; the table of our median times (us) is last.
#
# usage: bash results/h100/width192/run.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
out=${1:?usage: run.sh OUT_DIR}
mkdir -p "$out" build/bench build/exp
shapes=${SHAPES:-128x2048x8192,128x4096x4096,1000x1016x512,256x4096x4096,1024x1280x2048,256x5120x4096,1024x2048x2048,256x8192x1024,512x4096x8192,1024x2304x2048,1024x2560x2048,1024x2560x8192,2048x1280x4096,640x4864x4096,512x6144x1024,768x4096x8192,1024x3072x2048,1024x3072x16384,1024x3584x2048,1024x4096x2048}
mid=1024x2304x2048,1024x2560x2048,1024x2560x8192,2048x1280x4096,640x4864x4096,512x6144x1024,768x4096x8192,1024x3072x2048,1024x3072x16384
nv() { nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude "$@" -lcublas; }
for v in bf16 fp16; do
  ex=gemm && [[ $v == fp16 ]] && ex=gemm-f16
  [[ -x build/bench/gemm-check-$v && -z ${REBUILD:-} ]] ||
    nv -Iexamples/$ex -DGEMM_ELEMENT=$v -Xptxas -v gen/$ex.ws.cu examples/gemm/main.cu \
      -o build/bench/gemm-check-$v >"$out/build-$v.log" 2>&1 &
done
nv -Iexamples/gemm -DGEMM_ELEMENT=bf16 gen/variants/n192.ws.cu examples/gemm/main.cu \
  -o build/exp/n192 >"$out/build-n192.log" 2>&1 &
wait
grep -H -E "spill|warning|\(C7" "$out"/build-*.log | grep -v " 0 bytes spill stores, 0 bytes spill loads" | head
rc=0
for v in bf16 fp16; do
  bin=build/bench/gemm-check-$v
  for mode in auto off 128 192; do
    TAWA_NARROW=$mode timeout 200 $bin --label "$v-$mode" --shapes "$shapes" --time \
      --pairs ${PAIRS:-30} --json "$out/$v-$mode.json" >"$out/$v-$mode.log" 2>&1 || rc=1
  done
  TAWA_NARROW=192 timeout 200 $bin --label "$v-force192" \
    --shapes 4096x4096x4096,8192x8192x512,1792x2560x320,8000x8064x4000,300x201x128,200x136x77 \
    >"$out/$v-force192.log" 2>&1 || rc=1
done
TAWA_NARROW=off timeout 200 build/exp/n192 --label "bf16-n192" --shapes "$mid" --time \
  --pairs ${PAIRS:-30} --json "$out/bf16-n192.json" >"$out/bf16-n192.log" 2>&1 || rc=1
echo "== FAIL lines: $(cat "$out"/*.log | grep -c FAIL)"
python3 - "$out" <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
t = {}
for f in glob.glob(f"{out}/*.json"):
    if f.endswith("width192.json"):
        continue
    d = json.load(open(f))
    v, mode = d["label"].split("-")
    for r in d["results"]:
        e = t.setdefault((v, r["shape"]), {})
        e[mode] = r["ms"] * 1e3 if r["pass"] else float("nan")
        e.setdefault("cublas", []).append(r["cublas_ms"] * 1e3)
modes = ("auto", "off", "128", "192", "n192")
print(f"{'elem':<5} {'shape':<17}{'wide':>5}{'t192':>5}" + "".join(f"{x:>8}" for x in modes)
      + f"{'cuBLAS':>8}  auto/cuBLAS  auto/best")
rows = []
for (v, s) in sorted(t, key=lambda k: (k[0], [int(x) for x in k[1].split('x')])):
    m, n, k = map(int, s.split('x'))
    wide = -(-m // 128) * -(-n // 256)
    t192 = -(-m // 128) * -(-n // 192)
    e = t[(v, s)]
    cub = statistics.median(e["cublas"])
    best = min(e.get(x, 1e9) for x in ("off", "128", "192"))
    print(f"{v:<5} {s:<17}{wide:>5}{t192:>5}" + "".join(f"{e.get(x, float('nan')):8.1f}" for x in modes)
          + f"{cub:8.1f}  {cub / e['auto']:11.3f}  {best / e['auto']:9.3f}")
    rows.append(dict(element=v, shape=s, wide_tiles=wide, tiles_192=t192, cublas_us=cub,
                     **{f"{x}_us": e.get(x) for x in modes}))
json.dump(rows, open(f"{out}/width192.json", "w"), indent=1)
PY
exit $rc
