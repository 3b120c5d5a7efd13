set -u
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p build/decode $OUT/n
flags=(-O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm -DGEMM_ELEMENT=bf16 -DGEMM_LAYOUT=nt)
for kv in base:gemm new:gemm-new t32k4:short-64x32k4s4 t64k2:short-64x64k2s6; do
  nvcc "${flags[@]}" ${GEN:-gen/decode}/${kv#*:}.ws.cu examples/gemm/main.cu -o build/decode/${kv%%:*} -lcublas &
done
wait
S=16x4096x1024,16x4096x4096,48x4096x4096,64x2048x2048,64x4096x4096
for k in base new t32k4 t64k2; do
  timeout 200 ncu --csv --metrics gpu__time_duration.sum build/decode/$k --label $k --shapes $S --time --pairs 5 --warmup 1 > $OUT/n/$k.csv 2>$OUT/n/$k.err
done
python3 - $OUT/n <<'PY'
import csv, sys, os
d = sys.argv[1]
for k in ["base", "new", "t32k4", "t64k2"]:
    rows = [l for l in open(os.path.join(d, k + ".csv")) if l.startswith('"')]
    r = list(csv.DictReader(rows))
    out = [f'{x["Kernel Name"].split("(")[0][:40]} {x["Metric Value"]}{x["Metric Unit"][:2]}' for x in r]
    print(k, len(out))
    print("  " + " | ".join(out))
PY
