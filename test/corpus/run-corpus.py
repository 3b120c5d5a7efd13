#!/usr/bin/env python3
"""Runs tawa-rewrite over CUDA sources the project did not write.

Each CUB header of the CUDA toolkit (cccl/cub/**/*.cuh) is included from a
one-line translation unit; the project's examples are run as they are. The
run fails when the tool crashes (killed by a signal, or an exit status other
than 0 and 1), when a file without '#pragma tawa' comes out changed, or when
rewriting a rewritten example changes it again. A translation unit that does
not parse (exit 1) is listed, not failed, unless too many do.

To stay within a few minutes on two cores, the headers every CUB header
includes (cub/util_type.cuh and below) are parsed once into a precompiled
header; each translation unit still parses its own header.

usage: run-corpus.py TOOL CLANGXX CCCL_INCLUDE_DIR SRC_ROOT WORK_DIR
"""
import concurrent.futures
import os
import pathlib
import shlex
import subprocess
import sys


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def main():
    tool, clangxx, cccl, src_root, work = sys.argv[1:6]
    work = pathlib.Path(work)
    (work / "tu").mkdir(parents=True, exist_ok=True)
    headers = sorted(pathlib.Path(cccl, "cub").rglob("*.cuh"))
    if not headers:
        sys.exit(f"run-corpus: no CUB headers under {cccl}")

    # The precompiled header, built with the command the tool parses with.
    pch_src = work / "pch.cuh"
    pch_src.write_text("#include <cub/util_type.cuh>\n")
    cmd = run([tool, "--print-command", str(pch_src), "--", f"-I{cccl}"])
    args = shlex.split(cmd.stdout)[1:-1]
    pch = work / "cub.pch"
    r = run([clangxx, *args, "-Xclang", "-emit-pch", "-c", str(pch_src),
             "-o", str(pch)])
    if r.returncode:
        sys.exit("run-corpus: cannot build the precompiled header:\n" + r.stderr)
    flags = ["--", f"-I{cccl}", "-include-pch", str(pch)]

    jobs = []
    for h in headers:
        rel = h.relative_to(cccl).as_posix()
        tu = work / "tu" / (rel.replace("/", "__") + ".cu")
        tu.write_text(f"#include <{rel}>\n")
        jobs.append(tu)

    def check(tu):
        out = tu.with_suffix(".out.cu")
        r = run([tool, str(tu), "-o", str(out), *flags])
        if r.returncode not in (0, 1):
            return ("crash", tu, r.returncode, r.stderr[-2000:])
        if r.returncode == 1:
            return ("no-parse", tu, 1, r.stderr.splitlines()[:3])
        if out.read_text() != tu.read_text():
            return ("changed", tu, 0, "")
        return ("ok", tu, 0, "")

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = list(pool.map(check, jobs))

    # The project's examples, with the real toolkit: a file with a pragma is
    # rewritten, a second pass changes nothing; a file without is unchanged.
    for ex in sorted(pathlib.Path(src_root, "examples").rglob("*.cu")):
        once, twice = work / f"{ex.parent.name}-{ex.name}.1", work / f"{ex.parent.name}-{ex.name}.2"
        ef = ["--", f"-I{ex.parent}"]
        r = run([tool, str(ex), "-o", str(once), *ef])
        if r.returncode not in (0, 1):
            results.append(("crash", ex, r.returncode, r.stderr[-2000:]))
            continue
        if r.returncode == 1:
            results.append(("crash", ex, 1, "an example must parse:\n" + r.stderr[-2000:]))
            continue
        has_pragma = "#pragma tawa" in ex.read_text()
        if not has_pragma and once.read_text() != ex.read_text():
            results.append(("changed", ex, 0, ""))
            continue
        r = run([tool, str(once), "-o", str(twice), *ef])
        if r.returncode != 0 or twice.read_text() != once.read_text():
            results.append(("not-idempotent", ex, r.returncode, r.stderr[-2000:]))
            continue
        results.append(("ok", ex, 0, ""))

    counts = {}
    for kind, path, rc, detail in results:
        counts[kind] = counts.get(kind, 0) + 1
        if kind != "ok":
            print(f"{kind}: {path} (exit {rc})")
            if detail:
                print("  " + (detail if isinstance(detail, str) else "\n  ".join(detail)))
    print("corpus:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())),
          f"of {len(results)} files")
    bad = sum(counts.get(k, 0) for k in ("crash", "changed", "not-idempotent"))
    if bad or counts.get("no-parse", 0) > len(results) // 4:
        sys.exit(1)


if __name__ == "__main__":
    main()
