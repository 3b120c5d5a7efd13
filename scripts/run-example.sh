#!/usr/bin/env bash
# The main job: set-up, then rewrite examples/gemm/gemm.cu into
# gen/gemm.ws.cu. It prints what a newcomer wants first: what the planner
# chose for the tile loop and why (--explain), where the output is and how
# the launch changed; the generated code itself is in the file (docs/output.md
# walks through it). Where nvidia-smi finds a GPU, it also builds the
# rewritten and the reference kernel, checks both against cuBLAS and times
# the rewritten one (scripts/gpu-check.sh; results in results/ or $OUT).
#
# TAWA_REWRITE=path/to/tawa-rewrite skips the set-up and uses that binary;
# GEN_DIR replaces gen/; TAWA_NO_GPU=1 skips the GPU part.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
tool=${TAWA_REWRITE:-}
if [[ -z $tool ]]; then
  bash scripts/setup.sh
  tool=build/tool/tawa-rewrite/tawa-rewrite
fi
gen=${GEN_DIR:-gen}
src=examples/gemm/gemm.cu
out=$gen/gemm.ws.cu
mkdir -p "$gen"
echo "== $src: what tawa-rewrite chose for the tile loop, and why (--explain)"
"$tool" --explain --check --quiet "$src" -- -Iexamples/gemm
"$tool" "$src" -o "$out" --quiet -- -Iexamples/gemm
echo
echo "== wrote $out ($(wc -l <"$out") lines from the $(wc -l <"$src") of $src)"
echo "   the kernel became a warp-specialized kernel, narrow variants and a"
echo "   launcher; its launch became a call of the launcher:"
grep -hE '^ *gemm_nt<<<' "$src" | sed 's/^ */     - /'
grep -hE '^ *(\(void\))?gemm_nt_launch\(' "$out" | sed 's/^ */     + /'
echo "   read it:   less $out   (docs/output.md walks through it)"
echo "   the diff:  diff -u $src $out"
if [[ ${TAWA_NO_GPU:-0} != 1 ]] && command -v nvidia-smi >/dev/null 2>&1 &&
  nvidia-smi -L >/dev/null 2>&1; then
  bash scripts/gpu-check.sh "$out" "${OUT:-results/gemm}"
else
  echo "== no GPU found (nvidia-smi): skipping the build, check and timing on the GPU"
fi
