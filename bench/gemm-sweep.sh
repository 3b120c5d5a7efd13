#!/usr/bin/env bash
# The GEMM sweep: every shape group of bench/sweep.py (squares, models,
# ragged, skinny), every layout and element type, checked, then timed against
# the vendor library in the same process, on a Hopper GPU.
#
# usage: bash bench/gemm-sweep.sh GEN_DIR OUT_DIR PART...
#   GEN_DIR  what bench/sweep-rewrite.sh wrote: gemm.ws.cu, gemm-f16.ws.cu,
#            gemm-<layout>[-f16].ws.cu, gemm_fp8.ws.cu, epilogue.ws.cu
#   OUT_DIR  one folder per part, then sweep.json, sweep.md, sweep-*.png
#   PART     dense-nt, dense-nn, dense-tn, dense-tt: bf16 and fp16 in that
#            layout (C = A B, "t" where an operand is stored K-major: nt is
#            A M x K and B N x K), through bench/gemm-bench.sh (its check:
#            poisoned output, cuBLAS and an fp64 spot check, then the timed
#            pairs);
#            fp8: the three pairings of examples/gemm-fp8 (e4m3 x e4m3 ->
#            bf16, e4m3 x e5m2 -> fp32, e5m2 x e5m2 -> fp16) against
#            cuBLASLt fp8, on the shapes whose extents are multiples of 16;
#            epilogue: the four of examples/gemm-epilogue against the
#            fastest of cuBLASLt's fused epilogue and cuBLAS + a kernel;
#            report: only bench/sweep.py report OUT_DIR (also run after the
#            others).
# environment: PAIRS, WARMUP (default 20 and 3), SHAPES (overrides every
#   part's shape list), PYTHON (default python3).
# Parts are independent, so a sweep too long for one session's call can be
# run as several calls into several OUT_DIRs and reported together by
# copying the part folders into one. Exit status 1 when a part failed.
set -uo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
gen=$(cd "${1:?usage: gemm-sweep.sh GEN_DIR OUT_DIR PART...}" && pwd)
mkdir -p "${2:?usage: gemm-sweep.sh GEN_DIR OUT_DIR PART...}"
out=$(cd "$2" && pwd)
shift 2
cd "$repo"
python=${PYTHON:-python3}
export PAIRS=${PAIRS:-20} WARMUP=${WARMUP:-3}
rc=0

shapes() { # sweep.py shapes arguments
  if [[ -n ${SHAPES:-} ]]; then echo "$SHAPES"; else "$python" bench/sweep.py shapes "$@"; fi
}

dense() { # layout
  local l=$1 v
  if [[ $l == nt ]]; then v="bf16 fp16"; else v="bf16-$l fp16-$l"; fi
  VARIANTS=$v DENSE_SHAPES=$(shapes) BUILD_DIR=build/sweep-$l RUN_TIMEOUT=280 \
    bash bench/gemm-bench.sh "$gen" "$out/dense-$l" || rc=1
}

kinds() { # part example source main-binary-name shapes...
  local part=$1 ex=$2 src=$3 list=$4
  local dir=$out/$part bin=build/sweep-$part/check
  mkdir -p "$dir" "build/sweep-$part"
  if ! nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
    "-Iexamples/$ex" -Xptxas -v "$gen/$src" "examples/$ex/main.cu" -o "$bin" \
    -lcublas -lcublasLt -lcuda >"$dir/build.log" 2>&1; then
    echo "gemm-sweep: $part: build failed; see $dir/build.log"
    tail -n 20 "$dir/build.log"
    rc=1
    return
  fi
  # The reference kernels of tile.h (the fallback) are not checked.
  if awk '/Compiling entry/ { ref = /_reference/ } !ref' "$dir/build.log" |
    grep -qiE 'ptxas.*warning|\(C7|[1-9][0-9]* bytes spill'; then
    echo "gemm-sweep: $part: ptxas warning, remark or spill; see $dir/build.log"
    rc=1
  fi
  timeout -k 10 400 "$bin" --label "$part" --time --shapes "$list" \
    --json "$dir/timed.json" 2>&1 | tee "$dir/timed.log" || rc=1
}

for part in "$@"; do
  echo "== $part"
  case $part in
  dense-nt | dense-nn | dense-tn | dense-tt) dense "${part#dense-}" ;;
  fp8) kinds fp8 gemm-fp8 gemm_fp8.ws.cu "$(shapes --multiple-of 16)" ;;
  epilogue)
    kinds epilogue gemm-epilogue epilogue.ws.cu \
      "$(shapes --group models --group skinny --group ragged)"
    ;;
  report) ;;
  *)
    echo "gemm-sweep: unknown part '$part'" >&2
    exit 2
    ;;
  esac
done
echo
"$python" bench/sweep.py report "$out" || rc=1
exit $rc
