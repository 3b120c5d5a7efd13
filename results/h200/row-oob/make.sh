#!/usr/bin/env bash
# Writes the inputs of gpu.sh into GEN (default gen/row-oob): the NT bf16 GEMM
# example rewritten by the tool, its launcher's check relaxed from A.rows ==
# C.rows to A.rows >= C.rows, and a copy of examples/gemm/main.cu whose A,
# where PAD_A is set, is allocated 4x larger and viewed with its rows rounded
# up to a multiple of PAD_A. The rows past M are read into the tiles but
# computed into rows of C that are not stored; C and its check are as
# before. This removes the rows past M from A's TMA boxes (no out-of-bounds
# fill) and changes nothing else.
#   bash results/h200/row-oob/make.sh [GEN]      (where the tool is built)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
gen=${1:-gen/row-oob}
mkdir -p "$gen"
build/tool/tawa-rewrite/tawa-rewrite examples/gemm/gemm.cu -o "$gen/gemm.ws.cu" -- -Iexamples/gemm
sed -i 's/A\.rows != C\.rows/A.rows < C.rows/' "$gen/gemm.ws.cu"
grep -q 'A.rows < C.rows' "$gen/gemm.ws.cu"
cp examples/gemm/main.cu "$gen/main_pad.cu"
python3 - "$gen/main_pad.cu" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = "      : a(s.a_count()), b(s.b_count()), c(s.c_count()) {}"
assert old in s
s = s.replace(old, "      : a(s.a_count() * 4), b(s.b_count()), c(s.c_count()) {}")
old = "  const int a_rows = kATransposed ? s.k : s.m,"
assert old in s
s = s.replace(old, """  const int pad = getenv("PAD_A") ? atoi(getenv("PAD_A")) : 0;
  const int a_rows = kATransposed ? s.k : (pad ? (s.m + pad - 1) / pad * pad : s.m),""")
open(p, "w").write(s)
PY
echo "wrote $gen"
