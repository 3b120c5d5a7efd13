import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
# find header row
h = None
for i, r in enumerate(rows):
    if 'Source' in r and any('Sampling' in c for c in r):
        h = i; break
if h is None:
    print("no header"); print(rows[:3]); sys.exit()
hdr = rows[h]
si = hdr.index('Source')
ci = [j for j, c in enumerate(hdr) if c.startswith('Warp Stall Sampling (All')][0]
data = []
for r in rows[h+1:]:
    if len(r) <= ci: continue
    try: v = float(r[ci].replace(',', ''))
    except: continue
    data.append((v, r[si]))
tot = sum(v for v, _ in data)
print("total samples", tot, "instructions", len(data))
for v, s in sorted(data, reverse=True)[:int(sys.argv[2]) if len(sys.argv) > 2 else 25]:
    print(f"{v:8.0f} {100*v/tot:5.1f}%  {s[:110]}")
