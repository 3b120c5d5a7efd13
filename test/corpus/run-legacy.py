#!/usr/bin/env python3
"""Runs tawa-rewrite over the hand-written kernels of test/corpus/Inputs/legacy.

Each file has '#pragma tawa tile' on the K loop of one GEMM-like kernel in a
style people write (tutorial SGEMMs on 16-bit data, the CUDA samples'
matrixMul, WMMA kernels, register blocking, vector loads, epilogues) or one
that must be refused. expected.txt says, per file, whether the tool rewrites
it or refuses it. The run fails when the tool crashes (a signal, or an exit
status other than 0 and 1), when a file's outcome differs from expected.txt,
or when a refused file's output is not byte-identical to its input. The
rewritten kernels were checked against the kernels as written on a GPU
(results/h200/legacy-corpus/).

usage: run-legacy.py TOOL CORPUS_DIR INCLUDE_DIR WORK_DIR
"""
import concurrent.futures
import pathlib
import subprocess
import sys


def outcome(tool, src, include, work):
    out = work / (src.stem + ".ws.cu")
    p = subprocess.run([tool, str(src), "-o", str(out), "--",
                        "--cuda-gpu-arch=sm_90a", f"-I{include}"],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return "crash", f"exit status {p.returncode}: {p.stderr[-400:]}"
    if not out.exists():
        return "no output", p.stderr[-400:]
    same = out.read_bytes() == src.read_bytes()
    return ("refused" if same else "rewritten"), ""


def main():
    tool, corpus, include, work = sys.argv[1:5]
    corpus, work = pathlib.Path(corpus), pathlib.Path(work)
    work.mkdir(parents=True, exist_ok=True)
    expected = {}
    for line in (corpus / "expected.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, what = line.split()
            expected[name] = what
    files = sorted(corpus.glob("*.cu"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda f: outcome(tool, f, include, work),
                                files))
    bad = 0
    for f, (got, why) in zip(files, results):
        want = expected.get(f.name, "unlisted")
        if got != want:
            bad += 1
            print(f"legacy corpus: {f.name}: {got}, expected {want} {why}")
    missing = set(expected) - {f.name for f in files}
    for name in sorted(missing):
        bad += 1
        print(f"legacy corpus: {name} is listed but missing")
    counts = {w: sum(1 for g, _ in results if g == w)
              for w in ("rewritten", "refused")}
    if bad:
        print(f"legacy corpus: {bad} of {len(files)} files wrong")
        return 1
    print(f"legacy corpus: ok {len(files)} files, {counts['rewritten']} "
          f"rewritten, {counts['refused']} refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
