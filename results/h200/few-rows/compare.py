"""Before/after table of the few-rows twins: for every (variant, shape) that
both runs of gpu.sh timed, our time before and after, the vendor library's
time in each process, and ours / vendor in each.

    python3 results/h200/few-rows/compare.py results/h200/few-rows/run1 results/h200/few-rows/run2
"""
import glob
import json
import math
import os
import sys


def rows_of(run, gen):
    out = {}
    for path in glob.glob(os.path.join(run, gen, "*", "*.json")):
        doc = json.load(open(path))
        results = doc if isinstance(doc, list) else doc.get("results", [])
        for r in results:
            if not isinstance(r, dict) or not r.get("ms"):
                continue
            if "epilogue" in r:
                variant = "epi-" + r["epilogue"]
            elif "gemm" in r:
                variant = "fp8-" + r["gemm"]
            else:
                variant = r.get("label") or doc["label"]
            base = r.get("cublas_ms") or r.get("baseline_ms")
            out[(variant, r["shape"])] = (r["ms"] * 1e3, base * 1e3, r["ratio"])
    return out


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main(runs):
    before, after = {}, {}
    for run in runs:
        before.update(rows_of(run, "old"))
        after.update(rows_of(run, "new"))
    keys = sorted(set(before) & set(after),
                  key=lambda k: (k[0], [int(x) for x in k[1].split("x")]))
    print(f"{'variant':18} {'shape':15} {'ours before':>11} {'after':>7} "
          f"{'speed-up':>8} {'base before':>11} {'after':>7} "
          f"{'ratio before':>12} {'after':>7}")
    for k in keys:
        (o, ob, orat), (n, nb, nrat) = before[k], after[k]
        print(f"{k[0]:18} {k[1]:15} {o:11.1f} {n:7.1f} {o / n:8.2f} "
              f"{ob:11.1f} {nb:7.1f} {orat:12.3f} {nrat:7.3f}")
    speed = [before[k][0] / after[k][0] for k in keys]
    print(f"{len(keys)} rows (us); our speed-up: geomean {geomean(speed):.3f}, "
          f"min {min(speed):.3f}, max {max(speed):.3f}; ours / vendor: geomean "
          f"{geomean([before[k][2] for k in keys]):.3f} -> "
          f"{geomean([after[k][2] for k in keys]):.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
