#!/usr/bin/env bash
# Where the warps stall: ncu source counters of ours at one shape (default
# 8192x8192x512), aggregated by SASS opcode and listed by instruction.
# usage: V=VARIANT bash results/experiments/prof.sh OUT_DIR [SHAPE]
set -uo pipefail
out=${1:?}; shape=${2:-8192x8192x512}; mkdir -p "$out" build/exp
v=${V:-cur}
[[ -x build/exp/$v ]] || nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/gemm -lineinfo \
  -DGEMM_ELEMENT=bf16 gen/exp/$v.ws.cu examples/gemm/main.cu -o build/exp/$v -lcublas || exit 1
timeout 300 ncu --section WarpStateStats --section SourceCounters --section SpeedOfLight -k regex:gemm_nt -c 1 -f -o "$out/rep" build/exp/$v --label x --shapes $shape > "$out/ncu.log" 2>&1
tail -3 "$out/ncu.log"
ncu -i "$out/rep.ncu-rep" --page source --csv --print-source sass > "$out/src.csv" 2>&1
ncu -i "$out/rep.ncu-rep" --page details > "$out/details.txt" 2>&1
grep -E "Duration|Compute \(SM\)|Warp Cycles Per Issued|Issue Slot|Stall" "$out/details.txt" | head -20
python3 - "$out/src.csv" <<'PY'
import csv,sys,collections
rows=list(csv.reader(open(sys.argv[1])))
# find header
hi=next(i for i,r in enumerate(rows) if 'Source' in r and any('Sampl' in c for c in r))
h=rows[hi]; data=rows[hi+1:]
src=h.index('Source'); addr=h.index('Address') if 'Address' in h else 0
sc=[i for i,c in enumerate(h) if c.startswith('Warp Stall Sampling (All')][0]
stallcols=[(i,c) for i,c in enumerate(h) if c.startswith('stall_') or c.startswith('Stall')]
tot=0; byop=collections.Counter(); top=[]
def num(x):
  try: return float(x.replace(',',''))
  except: return 0.0
for r in data:
  if len(r)<=sc: continue
  s=num(r[sc]); tot+=s
  op=r[src].strip().split()[0] if r[src].strip() else '?'
  if op.startswith('@'): op=r[src].strip().split()[1]
  byop[op.split('.')[0]]+=s
  top.append((s,r[addr],r[src].strip()[:90]))
print("total samples",tot)
for op,s in byop.most_common(15): print(f"{s/tot*100:6.1f}%  {op}")
print("--- top instructions")
for s,a,t in sorted(top,reverse=True)[:40]: print(f"{s/tot*100:6.2f}%  {a}  {t}")
print("header:",[c for c in h][:12])
PY
