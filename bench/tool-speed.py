#!/usr/bin/env python3
"""Speed of tawa-rewrite against a bare clang parse of the same file.

For each example .cu file: the tool rewriting it (`tawa-rewrite FILE -o OUT
-- -I<dir>`) and `clang++-22 -fsyntax-only` with exactly the command the tool
parses with (`tawa-rewrite --print-command`: CUDA host side, the toolkit,
the same include paths). Runs are interleaved (tool, clang, tool, clang...)
and the medians compared; prints a table and writes JSON.

usage: bench/tool-speed.py [--runs N] [--json FILE] [TOOL]
"""
import argparse
import json
import pathlib
import platform
import shlex
import statistics
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def timed(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tool", nargs="?", default=str(ROOT / "build/tool/tawa-rewrite/tawa-rewrite"))
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    ap.add_argument("--json", default=str(ROOT / "bench/results/tool-speed.json"))
    a = ap.parse_args()

    rows = []
    for src in sorted(ROOT.glob("examples/**/*.cu")):
        flags = [f"-I{src.parent}"]
        printed = subprocess.run([a.tool, "--print-command", str(src), "--", *flags],
                                 check=True, capture_output=True, text=True).stdout
        clang_cmd = [a.clang, "-fsyntax-only", *shlex.split(printed)[1:]]
        with tempfile.TemporaryDirectory() as tmp:
            tool_cmd = [a.tool, str(src), "-o", f"{tmp}/out.cu", "--", *flags]
            timed(tool_cmd), timed(clang_cmd)  # warm the page cache
            tool_t, clang_t = [], []
            for _ in range(a.runs):
                tool_t.append(timed(tool_cmd))
                clang_t.append(timed(clang_cmd))
        tm, cm = statistics.median(tool_t), statistics.median(clang_t)
        rows.append({"file": str(src.relative_to(ROOT)), "runs": a.runs,
                     "tool_median_s": round(tm, 4), "clang_median_s": round(cm, 4),
                     "ratio": round(tm / cm, 3),
                     "tool_s": [round(x, 4) for x in tool_t],
                     "clang_s": [round(x, 4) for x in clang_t]})

    print(f"{'file':32} {'tawa-rewrite':>13} {'clang++ -fsyntax-only':>22} {'ratio':>6}")
    for r in rows:
        print(f"{r['file']:32} {r['tool_median_s']:12.3f}s {r['clang_median_s']:21.3f}s {r['ratio']:6.2f}")
    out = {"command": "python3 bench/tool-speed.py --runs %d" % a.runs,
           "host": platform.node(), "cpus": __import__("os").cpu_count(),
           "clang": a.clang, "rows": rows,
           "max_ratio": max(r["ratio"] for r in rows)}
    pathlib.Path(a.json).parent.mkdir(parents=True, exist_ok=True)
    pathlib.Path(a.json).write_text(json.dumps(out, indent=2) + "\n")
    print(f"max ratio {out['max_ratio']:.2f} (limit 1.3); wrote {a.json}")


if __name__ == "__main__":
    main()
