#!/usr/bin/env bash
# A batch run over the repository's own examples and test inputs: writes a
# compile_commands.json for them into build/batch/ (the examples with the
# CUDA toolkit's headers, the test inputs with the stand-in headers they are
# written for), then runs
#   tawa-rewrite --all -p build/batch --suggest --check -j 8 --report OUT/report
# which prints its progress and writes OUT/report.md, .json and .csv
# (OUT defaults to results/batch). Run where tawa-rewrite is built.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
tool=${TAWA_REWRITE:-build/tool/tawa-rewrite/tawa-rewrite}
out=${1:-results/batch}
mkdir -p build/batch "$out"
python3 - "$repo" >build/batch/compile_commands.json <<'PY'
import glob, json, os, sys
repo = sys.argv[1]
stub = ["-nocudainc", "-nocudalib", "-isystem", os.path.join(repo, "test/Inputs/cuda")]
cmds = []
for f in sorted(glob.glob(os.path.join(repo, "examples/*/*.cu"))):
    cmds.append({"directory": repo, "file": f,
                 "arguments": ["nvcc", "-c", f, "-I" + os.path.dirname(f)]})
for d in ["unsupported", "migrate", "plan", "pragma", "diagnostics"]:
    for f in sorted(glob.glob(os.path.join(repo, "test", d, "*.cu"))):
        cmds.append({"directory": repo, "file": f,
                     "arguments": ["clang++", "-x", "cuda", "-c", f] + stub})
json.dump(cmds, sys.stdout, indent=1)
PY
# A file with errors (some test inputs have them on purpose) makes the exit
# status 1; the run goes on past it and the report lists it.
"$tool" --all -p build/batch --suggest --check -j 8 -q --report "$out/report" 2>build/batch/stderr.log || true
grep '^tawa-rewrite: \[' build/batch/stderr.log | tail -3
sed -n '1,14p' "$out/report.md"
