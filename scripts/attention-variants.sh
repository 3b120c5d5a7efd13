#!/usr/bin/env bash
# Rewrites the attention example into gen/attention/<variant>.ws.cu, one file
# per variant, with tawa-rewrite.
#
# usage: scripts/attention-variants.sh [PATTERN...]
#   PATTERN  variant names or shell patterns (bf16-d128-*, *-causal); default
#            all 12: <bf16|f16>-d<64|128|256>-<causal|full>
# environment: TAWA_REWRITE (default build/tool/tawa-rewrite/tawa-rewrite),
#   GEN_DIR (default gen/attention).
#
# Each variant is the same source, examples/attention/attention.cu, with its
# compile flags (-DTAWA_ATTENTION_HEAD_DIM=64|128|256, -DTAWA_ATTENTION_F16
# for fp16, -DTAWA_ATTENTION_CAUSAL=1), which the rewriter reads too:
#   tawa-rewrite examples/attention/attention.cu -o gen/attention/<v>.ws.cu \
#     -- -Iexamples/attention <flags>
# A rewritten file includes <tawa/runtime.cuh>; when the tool leaves the kernel
# unconverted (it warns and copies the source), the copy is deleted so that
# gen/attention/ never holds a reference kernel under a rewritten name. The
# tool's output per variant is kept in gen/attention/<v>.log. Exit status: 0
# when every selected variant was rewritten, 1 otherwise.
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo" || exit 1
tool=${TAWA_REWRITE:-build/tool/tawa-rewrite/tawa-rewrite}
gen=${GEN_DIR:-gen/attention}

all=()
for t in bf16 f16; do
  for d in 64 128 256; do
    for m in full causal; do all+=("$t-d$d-$m"); done
  done
done

# variant -> its compile flags
flags_of() {
  local t d m
  IFS=- read -r t d m <<<"$1"
  local f="-DTAWA_ATTENTION_HEAD_DIM=${d#d}"
  [[ $t == f16 ]] && f+=" -DTAWA_ATTENTION_F16"
  [[ $m == causal ]] && f+=" -DTAWA_ATTENTION_CAUSAL=1"
  printf '%s\n' "$f"
}

selected=()
if [[ $# -eq 0 ]]; then
  selected=("${all[@]}")
else
  for v in "${all[@]}"; do
    for pat in "$@"; do
      # shellcheck disable=SC2053 # the pattern is meant to glob
      if [[ $v == $pat ]]; then
        selected+=("$v")
        break
      fi
    done
  done
  if [[ ${#selected[@]} -eq 0 ]]; then
    echo "attention-variants: no variant matches: $*" >&2
    exit 2
  fi
fi

if [[ ! -x $tool ]]; then
  echo "attention-variants: $tool not found (build the tool first: scripts/setup.sh)" >&2
  exit 1
fi
mkdir -p "$gen"

failed=0
for v in "${selected[@]}"; do
  out=$gen/$v.ws.cu
  log=$gen/$v.log
  rm -f "$out"
  read -r -a flags <<<"$(flags_of "$v")"
  rc=0
  "$tool" examples/attention/attention.cu -o "$out" -- -Iexamples/attention \
    "${flags[@]}" >"$log" 2>&1 || rc=$?
  warnings=$(grep -c 'warning:' "$log" || true)
  if [[ $rc -ne 0 ]]; then
    printf '%-18s FAIL  tawa-rewrite exited %d; see %s\n' "$v" "$rc" "$log"
    rm -f "$out"
    failed=1
  elif [[ ! -s $out ]]; then
    printf '%-18s FAIL  no output; see %s\n' "$v" "$log"
    failed=1
  elif ! grep -q 'tawa/runtime.cuh' "$out"; then
    printf '%-18s FAIL  not rewritten (%d warnings: the kernel was left unconverted); see %s\n' \
      "$v" "$warnings" "$log"
    rm -f "$out"
    failed=1
  else
    printf '%-18s ok    %s (%d warnings)\n' "$v" "$out" "$warnings"
  fi
done
exit "$failed"
