"""Prints the table of gpu.sh's runs and writes OUT/summary.json: per build
(shifted boxes, or whole boxes with -DTAWA_SHIFTED_BOXES=0) and shape, the
check, our time and the ratio to the baseline timed in the same process.
    python3 results/h200/shifted-boxes/table.py OUT
"""
import glob
import json
import os
import sys


def rows(out):
    """(group, shape, build, passed, us, ratio) of every result in OUT."""
    for path in sorted(glob.glob(os.path.join(out, "*.json"))):
        name = os.path.basename(path)[:-5]
        if name == "summary":
            continue
        data = json.load(open(path))
        results = data["results"] if isinstance(data, dict) else data
        kind, _, build = name.rpartition("-")
        for r in results:
            group = kind + ("/" + r["epilogue"] if "epilogue" in r else "")
            ms = r.get("ms")
            yield (group, r["shape"], build, bool(r["pass"]),
                   None if ms is None else 1000.0 * ms, r.get("ratio"))


def main(out):
    table = {}
    checks = fails = 0
    for group, shape, build, passed, us, ratio in rows(out):
        checks += 1
        fails += not passed
        if us is not None and ratio is not None:
            table.setdefault((group, shape), {})[build] = (us, ratio)
    print(f"{checks} checks, {fails} failed")
    print(f"{'group':<26} {'shape':<18} {'whole us':>9} {'ratio':>6} "
          f"{'shifted us':>10} {'ratio':>6} {'speed-up':>8}")
    summary = []
    for (group, shape), b in sorted(table.items()):
        if "whole" not in b or "shifted" not in b:
            continue
        (wu, wr), (su, sr) = b["whole"], b["shifted"]
        print(f"{group:<26} {shape:<18} {wu:9.1f} {wr:6.3f} {su:10.1f} "
              f"{sr:6.3f} {wu / su:8.2f}")
        summary.append({"group": group, "shape": shape, "whole_us": wu,
                        "whole_ratio": wr, "shifted_us": su,
                        "shifted_ratio": sr})
    json.dump({"checks": checks, "failed": fails, "rows": summary},
              open(os.path.join(out, "summary.json"), "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
