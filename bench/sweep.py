#!/usr/bin/env python3
"""The GEMM sweep's shapes, and its report.

  sweep.py shapes [--group G ...] [--multiple-of N]
      prints the sweep's shapes (MxNxK, comma-separated), of every group or
      of the named ones; --multiple-of keeps the shapes whose M, N and K are
      all multiples of N (fp8 needs K a multiple of 16 bytes).
  sweep.py report OUT_DIR [--from DIR ...] [--include SWEEP_JSON ...]
      reads what bench/gemm-sweep.sh left in OUT_DIR and each --from DIR
      (dense-*/<variant>.json from gemm-check, fp8/timed.json,
      epilogue/timed.json) and, with --include, the rows of earlier reports
      (the sweep.json of a call whose raw files did not all come back), writes
      OUT_DIR/sweep.json and OUT_DIR/sweep.md (per variant and group: shapes,
      geometric mean and minimum of ours / baseline; every shape below 0.9),
      draws OUT_DIR/sweep-<group>.png (one chart per group, when matplotlib is
      there) and prints the summary table.

The ratio is ours / baseline in TFLOP/s (> 1: faster than the baseline):
cuBLAS for bf16 and fp16 (cublasGemmEx, fp32 compute), cuBLASLt fp8 for fp8,
the fastest of cuBLASLt's fused epilogue and cuBLAS + a separate kernel for
the epilogues (examples/gemm-epilogue/main.cu says which each uses).
"""

import argparse
import json
import math
import os
import sys

# Each group: (name, description, shapes as (M, N, K)).
GROUPS = [
    ("squares", "M = N = K from 256 to 16384, powers of two and others",
     [(s, s, s) for s in (256, 384, 512, 768, 1000, 1024, 1536, 2000, 2048,
                          3000, 4096, 5000, 6144, 8192, 10000, 12288,
                          16384)]),
    # Llama-2-7B (hidden 4096, MLP 11008, 32 heads), 4096 tokens: QKV, the
    # attention output, the fused gate/up and the down projection.
    # Llama-3-70B (hidden 8192, MLP 28672, 8 KV heads of 128: QKV out 10240),
    # 8192 tokens: the same four. GPT-3 175B (hidden 12288), 2048 tokens:
    # QKV and the MLP's up projection.
    ("models", "Llama-2-7B at 4096 tokens, Llama-3-70B at 8192 tokens, "
     "GPT-3 175B at 2048 tokens (QKV, attention out, MLP up, MLP down)",
     [(4096, 12288, 4096), (4096, 4096, 4096), (4096, 22016, 4096),
      (4096, 4096, 11008),
      (8192, 10240, 8192), (8192, 8192, 8192), (8192, 57344, 8192),
      (8192, 8192, 28672),
      (2048, 36864, 12288), (2048, 49152, 12288)]),
    ("ragged", "extents that are no multiple of the tile: primes and others",
     [(1009, 1013, 1019), (2003, 3001, 4001), (3000, 5000, 7000),
      (4093, 4091, 4096), (777, 1555, 2333), (5003, 2011, 997),
      (4000, 4000, 4000), (1920, 1080, 4100)]),
    # 72-144 rows: a last row of tiles (or row part) of few rows, whose
    # A boxes reach past M (results/h200/row-oob/).
    ("skinny", "few rows (decode: 16 to 512 tokens on Llama-2-7B weights), "
     "few columns, or a short K",
     [(16, 4096, 4096), (32, 11008, 4096), (64, 4096, 11008),
      (72, 4096, 4096), (100, 11008, 4096), (144, 2048, 4096),
      (128, 12288, 4096), (192, 4096, 4096), (256, 22016, 4096),
      (512, 4096, 4096),
      (4096, 16, 4096), (4096, 64, 4096), (4096, 128, 4096),
      (8192, 256, 8192), (16384, 512, 1024),
      (8192, 8192, 64), (4096, 4096, 128), (8192, 8192, 256)]),
]


def text(shape):
    return "x".join(str(x) for x in shape)


def cmd_shapes(args):
    names = args.group or [g[0] for g in GROUPS]
    known = {g[0]: g for g in GROUPS}
    out = []
    for name in names:
        if name not in known:
            sys.exit(f"sweep.py: unknown group '{name}' (want one of: "
                     f"{', '.join(known)})")
        for s in known[name][2]:
            if all(x % args.multiple_of == 0 for x in s) and s not in out:
                out.append(s)
    print(",".join(text(s) for s in out))


def group_of(shape_text):
    for name, _, shapes in GROUPS:
        if shape_text in (text(s) for s in shapes):
            return name
    return "other"


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def read_rows(out_dir):
    """Every timed row as (variant, shape, ratio, ours TFLOP/s, base TFLOP/s)."""
    rows = []
    for entry in sorted(os.listdir(out_dir)):
        path = os.path.join(out_dir, entry)
        if entry.startswith("dense") and os.path.isdir(path):
            for name in sorted(os.listdir(path)):
                if name.endswith(".json") and name != "gemm-bench.json":
                    rows += dense_rows(os.path.join(path, name))
        elif entry in ("fp8", "epilogue") and os.path.isdir(path):
            timed = os.path.join(path, "timed.json")
            if os.path.exists(timed):
                rows += kind_rows(timed, entry)
    return rows


def dense_rows(path):
    with open(path) as f:
        doc = json.load(f)
    rows = []
    for r in doc.get("results", []):
        if r.get("pass") and r.get("ratio"):
            rows.append((doc["label"], r["shape"], r["ratio"], r["tflops"],
                         r["cublas_tflops"]))
    return rows


def kind_rows(path, family):
    with open(path) as f:
        doc = json.load(f)
    key = "gemm" if family == "fp8" else "epilogue"
    prefix = "fp8-" if family == "fp8" else "epi-"
    return [(prefix + r[key], r["shape"], r["ratio"], r["tflops"],
             r["baseline_tflops"]) for r in doc if r.get("pass") and
            r.get("ratio")]


def summarize(rows):
    variants = []
    for v, *_ in rows:
        if v not in variants:
            variants.append(v)
    groups = [g[0] for g in GROUPS] + ["other"]
    table = []
    for v in variants:
        mine = [r for r in rows if r[0] == v]
        line = {"variant": v, "all": stats([r[2] for r in mine])}
        for g in groups:
            line[g] = stats([r[2] for r in mine if group_of(r[1]) == g])
        big = [r[2] for r in mine
               if all(int(x) >= 4096 for x in r[1].split("x"))]
        line["large"] = stats(big)
        table.append(line)
    low = [{"variant": r[0], "shape": r[1], "group": group_of(r[1]),
            "ratio": r[2]} for r in rows if r[2] < 0.9]
    return table, low


def stats(values):
    if not values:
        return None
    return {"n": len(values), "geomean": geomean(values), "min": min(values)}


def cell(s):
    return "" if s is None else f"{s['geomean']:.3f} / {s['min']:.2f} ({s['n']})"


def markdown(table, low, header):
    cols = [g[0] for g in GROUPS] + ["large", "all"]
    lines = [header, "", "geometric mean / minimum of ours / baseline "
             "(shapes timed)", "",
             "| variant | " + " | ".join(cols) + " |",
             "|---|" + "---|" * len(cols)]
    for line in table:
        lines.append(f"| {line['variant']} | " +
                     " | ".join(cell(line[c]) for c in cols) + " |")
    lines += ["", f"shapes below 0.9: {len(low)}", ""]
    if low:
        lines += ["| variant | group | shape | ratio |", "|---|---|---|---|"]
        for r in sorted(low, key=lambda r: r["ratio"]):
            lines.append(f"| {r['variant']} | {r['group']} | {r['shape']} "
                         f"| {r['ratio']:.3f} |")
    return "\n".join(lines) + "\n"


def draw(rows, out_dir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("sweep.py: no matplotlib, no charts", file=sys.stderr)
        return False
    variants = []
    for v, *_ in rows:
        if v not in variants:
            variants.append(v)
    for name, desc, shapes in GROUPS:
        labels = [text(s) for s in shapes]
        fig, ax = plt.subplots(figsize=(max(8, 0.55 * len(labels)), 5))
        for i, v in enumerate(variants):
            pts = [(labels.index(r[1]), r[2]) for r in rows
                   if r[0] == v and r[1] in labels]
            if not pts:
                continue
            xs, ys = zip(*sorted(pts))
            ax.plot(xs, ys, marker="o", markersize=3, linewidth=0.8,
                    label=v)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.axhline(0.9, color="red", linewidth=0.6, linestyle="--")
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
        ax.set_ylabel("ours / baseline (TFLOP/s)")
        ax.set_title(f"{name}: {desc}", fontsize=8)
        ax.legend(fontsize=6, ncol=4)
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, f"sweep-{name}.png"), dpi=110)
        plt.close(fig)
    return True


def included_rows(paths):
    rows = []
    for path in paths or []:
        with open(path) as f:
            for r in json.load(f)["rows"]:
                rows.append((r["variant"], r["shape"], r["ratio"], r["tflops"],
                             r["baseline_tflops"]))
    return rows


def cmd_report(args):
    rows = included_rows(args.include) + read_rows(args.out_dir)
    for d in args.source or []:
        rows += read_rows(d)
    if not rows:
        sys.exit(f"sweep.py: no timed rows under {args.out_dir}")
    table, low = summarize(rows)
    header = f"# GEMM sweep ({len(rows)} timed rows)"
    md = markdown(table, low, header)
    with open(os.path.join(args.out_dir, "sweep.md"), "w") as f:
        f.write(md)
    doc = {"groups": [{"name": g[0], "description": g[1],
                       "shapes": [text(s) for s in g[2]]} for g in GROUPS],
           "summary": table, "below_0.9": low,
           "rows": [{"variant": r[0], "shape": r[1], "group": group_of(r[1]),
                     "ratio": r[2], "tflops": r[3], "baseline_tflops": r[4]}
                    for r in rows]}
    with open(os.path.join(args.out_dir, "sweep.json"), "w") as f:
        json.dump(doc, f, indent=1)
    charts = draw(rows, args.out_dir)
    print(md)
    return 0 if charts else 3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("shapes")
    sp.add_argument("--group", action="append")
    sp.add_argument("--multiple-of", type=int, default=1)
    rp = sub.add_parser("report")
    rp.add_argument("out_dir")
    rp.add_argument("--include", action="append")
    rp.add_argument("--from", dest="source", action="append")
    args = ap.parse_args()
    return cmd_shapes(args) if args.command == "shapes" else cmd_report(args)


if __name__ == "__main__":
    sys.exit(main())
