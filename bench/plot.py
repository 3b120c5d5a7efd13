#!/usr/bin/env python3
"""Merges, draws and tabulates the results of bench/gemm-bench.sh.

Collect mode (what gemm-bench.sh runs):

    python3 bench/plot.py --out-dir DIR --status DIR/status.tsv
        [--nvidia-smi FILE] [--pairs N] [--warmup N] [--commit SHA]
        [--command TEXT]

reads the status of every variant (status.tsv, written by the script) and
the gemm-check JSON of each variant that ran (DIR/<variant>.json), writes
DIR/gemm-bench.json (every row, the device, the date, and per variant the
geometric mean and the minimum of ours/cuBLAS over the timed shapes), draws
DIR/gemm-bench.png (TFLOP/s per shape, ours next to cuBLAS, one panel per
variant, the ratio above each pair) and prints the table.

Redraw mode:

    python3 bench/plot.py --redraw DIR/gemm-bench.json [--png FILE]

draws the chart and prints the table again from a merged JSON.

Exit status: 0; 3 when the JSON and the table are out but the chart could not
be drawn (no matplotlib, say); 1 on any other error.
"""

import argparse
import csv
import datetime
import json
import math
import os
import sys

RATIO_NOTE = "ratio = ours TFLOP/s / cuBLAS TFLOP/s, medians of interleaved pairs"


# -DGEMM_ELEMENT spellings to the names gemm-check reports.
ELEMENT_NAMES = {"bf16": "bf16", "bfloat16": "bf16", "half": "fp16",
                 "fp16": "fp16", "f16": "fp16"}


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def finite(x):
    return isinstance(x, (int, float)) and math.isfinite(x)


def read_status(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


ROW_KEYS = [
    "rel_err", "nonfinite", "spot_err", "cublas_spot_err", "graph_rel_err",
    "error", "ms",
    "cublas_ms", "ms_p10", "ms_p90", "cublas_ms_p10", "cublas_ms_p90",
    "tflops", "cublas_tflops", "ratio", "input_sets", "warmup_pairs",
    "timed_pairs", "flops",
]


def collect(args):
    """Builds the merged document from status.tsv and the variants' JSON."""
    variants, rows = [], []
    device, tolerance, spot_samples = None, None, None
    for st in read_status(args.status):
        name = st["variant"]
        elem = ELEMENT_NAMES.get(st["element"], st["element"])
        data = read_json(os.path.join(args.out_dir, name + ".json"))
        measured = {}
        if data:
            device = device or data.get("device")
            tolerance = data.get("tolerance", tolerance)
            spot_samples = data.get("spot_samples", spot_samples)
            for r in data.get("results", []):
                measured[r["shape"]] = r
        variants.append({
            "variant": name,
            "example": st["example"],
            "element": elem,
            "source": st["source"],
            "source_sha256": st["sha256"] or None,
            "status": st["status"],
            "note": st["note"],
            "seed": data.get("seed") if data else None,
            "complete": data.get("complete") if data else None,
        })
        for shape in [s for s in st["shapes"].split(",") if s]:
            r = measured.get(shape)
            row = {
                "variant": name,
                "element": elem,
                "shape": shape,
            }
            dims = [int(x) for x in shape.split("x")]
            if len(dims) == 3:
                dims = [1] + dims
            row.update(zip(["batches", "m", "n", "k"], dims))
            if r is None:
                row.update({"pass": False, "state": "not run"})
            else:
                row["pass"] = bool(r.get("pass"))
                row["state"] = ("timed" if finite(r.get("ratio")) else
                                "passed, not timed" if r.get("pass") else
                                "FAIL")
                for key in ROW_KEYS:
                    if key in r:
                        row[key] = r[key]
            rows.append(row)
    smi = []
    if args.nvidia_smi and os.path.exists(args.nvidia_smi):
        with open(args.nvidia_smi) as f:
            smi = [line.rstrip("\n") for line in f if line.strip()]
    return {
        "benchmark": "gemm-bench",
        "date": datetime.datetime.now(datetime.timezone.utc)
                .replace(microsecond=0).isoformat(),
        "device": device,
        "command": args.command,
        "commit": args.commit,
        "nvidia_smi": smi,
        "method": {
            "timed_pairs": args.pairs,
            "warmup_pairs": args.warmup,
            "tolerance": tolerance,
            "spot_samples": spot_samples,
            "note": RATIO_NOTE,
        },
        "variants": variants,
        "rows": rows,
    }


def summarize(doc):
    """Per variant: geometric mean and minimum of the ratio; overall state."""
    summary = {}
    for v in doc["variants"]:
        name = v["variant"]
        rows = [r for r in doc["rows"] if r["variant"] == name]
        timed = [r for r in rows if finite(r.get("ratio"))]
        s = {
            "element": v["element"],
            "shapes": len(rows),
            "passed": sum(1 for r in rows if r["pass"]),
            "timed": len(timed),
            "geomean_ratio": None,
            "min_ratio": None,
            "min_ratio_shape": None,
            "status": v["status"],
        }
        if timed:
            low = min(timed, key=lambda r: r["ratio"])
            s["geomean_ratio"] = geomean([r["ratio"] for r in timed])
            s["min_ratio"] = low["ratio"]
            s["min_ratio_shape"] = low["shape"]
        summary[name] = s
    doc["summary"] = summary
    doc["failed"] = any(v["status"] != "ok" for v in doc["variants"]) or any(
        not r["pass"] for r in doc["rows"])
    return doc


def fmt(x, spec):
    """x in `spec` ("8.1e"), or "-" as wide."""
    width = int(spec.split(".")[0])
    return format(x, spec) if finite(x) else "-".rjust(width)


def print_table(doc):
    print(f"==== gemm-bench: {doc.get('device') or 'device unknown'}, "
          f"{doc['date']} ====")
    print(f"{'variant':<13} {'shape':<18} {'check':<5} {'rel_err':>8} "
          f"{'spot':>8} {'ours':>7} {'cuBLAS':>7} {'ratio':>6}")
    for r in doc["rows"]:
        check = "PASS" if r["pass"] else ("-" if r["state"] == "not run"
                                          else "FAIL")
        print(f"{r['variant']:<13} {r['shape']:<18} {check:<5} "
              f"{fmt(r.get('rel_err'), '8.1e')} {fmt(r.get('spot_err'), '8.1e')} "
              f"{fmt(r.get('tflops'), '7.1f')} {fmt(r.get('cublas_tflops'), '7.1f')} "
              f"{fmt(r.get('ratio'), '6.3f')}")
    print("---- ours/cuBLAS (TFLOP/s, medians) per variant ----")
    print(f"{'variant':<13} {'status':<6} {'timed':>7} {'geomean':>8} "
          f"{'min':>7}  note")
    notes = {v["variant"]: v["note"] for v in doc["variants"]}
    for name, s in doc["summary"].items():
        low = (f"min at {s['min_ratio_shape']}" if s["min_ratio_shape"]
               else "")
        note = "; ".join(x for x in (notes.get(name, ""), low) if x)
        print(f"{name:<13} {s['status']:<6} {s['timed']:>3}/{s['shapes']:<3} "
              f"{fmt(s['geomean_ratio'], '8.3f')} {fmt(s['min_ratio'], '7.3f')}"
              f"  {note}")
    sys.stdout.flush()


def draw(doc, png):
    """One panel per variant: bars of TFLOP/s, ours next to cuBLAS."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [v["variant"] for v in doc["variants"]]
    panels = [(n, [r for r in doc["rows"] if r["variant"] == n])
              for n in names]
    panels = [(n, rows) for n, rows in panels if rows]
    if not panels:
        raise ValueError("no rows to draw")
    widths = [max(len(rows), 2.6) for _, rows in panels]
    fig, axes = plt.subplots(
        1, len(panels), figsize=(2.0 + 1.05 * sum(widths), 5.2),
        gridspec_kw={"width_ratios": widths}, squeeze=False)
    top = max([r.get(k) for r in doc["rows"]
               for k in ("tflops", "cublas_tflops") if finite(r.get(k))],
              default=1.0)
    bar = 0.38
    for ax, (name, rows) in zip(axes[0], panels):
        xs = list(range(len(rows)))
        ours = [r.get("tflops") if finite(r.get("tflops")) else 0.0
                for r in rows]
        base = [r.get("cublas_tflops") if finite(r.get("cublas_tflops"))
                else 0.0 for r in rows]
        ax.bar([x - bar / 2 for x in xs], ours, bar, label="tawa-rewrite",
               color="#1f77b4")
        ax.bar([x + bar / 2 for x in xs], base, bar, label="cuBLAS",
               color="#9a9a9a")
        for x, r in zip(xs, rows):
            if finite(r.get("ratio")):
                text, color = f"{r['ratio']:.2f}x", (
                    "#1a7f37" if r["ratio"] >= 1.0 else "#b35900")
                y = max(r.get("tflops") or 0.0, r.get("cublas_tflops") or 0.0)
            else:
                text, color, y = ("not run" if r["state"] == "not run"
                                  else "FAIL"), "#c00000", 0.0
            ax.text(x, y + 0.015 * top, text, ha="center", va="bottom",
                    fontsize=8, color=color, rotation=90 if not y else 0)
        s = doc["summary"].get(name, {})
        title = f"{name}"
        if finite(s.get("geomean_ratio")):
            title += (f"\ngeomean {s['geomean_ratio']:.3f}x, "
                      f"min {s['min_ratio']:.3f}x")
        else:
            title += f"\n{s.get('status', '')}"
        ax.set_title(title, fontsize=10)
        ax.set_xticks(xs)
        ax.set_xticklabels([r["shape"] for r in rows], rotation=35,
                           ha="right", fontsize=8)
        ax.set_xlim(-0.6, len(rows) - 0.4)
        ax.set_ylim(0, top * 1.15)
        ax.grid(axis="y", alpha=0.3)
        ax.set_axisbelow(True)
    axes[0][0].set_ylabel("TFLOP/s (median)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper right", ncol=2, fontsize=8)
    fig.suptitle(f"GEMM, tawa-rewrite vs cuBLAS on "
                 f"{doc.get('device') or 'unknown device'} ({doc['date'][:10]})"
                 f"\n{RATIO_NOTE}", fontsize=10)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out-dir", help="gemm-bench's output directory")
    ap.add_argument("--status", help="status.tsv written by gemm-bench.sh")
    ap.add_argument("--nvidia-smi", help="the card's state, CSV lines")
    ap.add_argument("--pairs", type=int)
    ap.add_argument("--warmup", type=int)
    ap.add_argument("--commit")
    ap.add_argument("--command")
    ap.add_argument("--redraw", help="a merged gemm-bench.json to draw again")
    ap.add_argument("--png", help="where the chart goes")
    args = ap.parse_args()

    if args.redraw:
        with open(args.redraw) as f:
            doc = summarize(json.load(f))
        png = args.png or os.path.splitext(args.redraw)[0] + ".png"
    else:
        if not args.out_dir or not args.status:
            ap.error("--out-dir and --status are needed (or --redraw)")
        doc = summarize(collect(args))
        path = os.path.join(args.out_dir, "gemm-bench.json")
        with open(path, "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
        png = args.png or os.path.join(args.out_dir, "gemm-bench.png")
    drawn = True
    try:
        draw(doc, png)
    except Exception as e:  # the table still matters without the chart
        print(f"plot.py: cannot draw {png}: {type(e).__name__}: {e}",
              file=sys.stderr)
        drawn = False
    print_table(doc)
    return 0 if drawn else 3


if __name__ == "__main__":
    sys.exit(main())
