#!/usr/bin/env bash
# shellcheck disable=SC2317 # the functions run through xargs look unreachable
# Builds, checks, sanitizes and benchmarks the attention variants on a machine
# with a Hopper GPU, in one call.
#
# usage: scripts/attention-gpu.sh OUT_DIR
#
# Variants: <bf16|f16>-d<64|128|256>-<causal|full>. By default every variant
# whose rewritten file gen/attention/<variant>.ws.cu is present (made by
# scripts/attention-variants.sh on a machine with the tool; gen/ is not
# tracked, so it must travel with the call), or all 12 references when none
# is. A file that does not include <tawa/runtime.cuh> is not a rewrite and is
# not used.
#
# Steps (each runs even when an earlier one failed, where its inputs exist):
#   1. in parallel (JOBS, default nproc): every variant's rewritten file and
#      examples/attention/attention.cu (the reference) as shared libraries,
#        nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude
#          -Iexamples/attention <flags> -Xcompiler -fPIC -shared -Xptxas -v
#      and examples/attention/main.cu (the driver) once, linked with each
#      library. A rewritten build with any warning (nvcc's or ptxas's, a
#      C7xxx remark, "Potential Performance Loss"), or a spill in the
#      warp-specialized kernel (the fallback copy of the kernel as written is
#      portable tile code and may spill), fails the run;
#      meanwhile Triton's kernel configurations are compiled in the
#      background (bench.py --prewarm-triton);
#   2. the driver checks every library against its naive float32 attention:
#      the rewritten one at seqlen 128, 1000, 4096, 16384 (batch 1, heads 4)
#      and with seqlen_q != seqlen_k (1000/300 and 300/1000), the reference
#      at 128, 200 and 100/300;
#   3. compute-sanitizer --tool racecheck and --tool synccheck (ATTN_SANITIZERS;
#      add memcheck there) run the driver on each rewritten library at batch 1,
#      heads 2, seqlen 256 and 200, with --error-exitcode;
#   4. the driver times each rewritten library at FlashAttention-3's 4k shape
#      (batch 4, 2048 / head_dim heads, seqlen 4096; median of 30);
#   5. bench/attention/bench.py: checks of the rewritten, reference and Triton
#      kernels against PyTorch's float32 math, then the benchmark against the
#      baselines (see bench/attention/README.md).
#
# OUT_DIR receives (at most 8 files, as the device machine returns them):
#   summary.json          every step, every variant, bench's summary
#   attention.log         the combined output of this script
#   bench.json            bench.py's full results
#   attention-d64.png, attention-d128.png, attention-d256.png
#   attention-logs.tar.gz build, ptxas, driver, sanitizer and per-variant
#                         logs and JSON
# A short table comes last. Exit status: 0 when every step passed.
#
# environment:
#   ATTN_VARIANTS   comma-separated names or patterns (e.g. 'bf16-d128-*')
#   ATTN_QUICK=1    a short run: checks 128x8,1000x8 (reference 128x8,1000x2),
#                   bench seqlens 1024,4096,16384, 10 timed rounds; any knob
#                   set explicitly wins
#   ATTN_SANITIZERS tools to run (default "racecheck synccheck"; "" for none)
#   ATTN_SKIP_DRIVER=1, ATTN_SKIP_BENCH=1 (bench.py's checks still run unless
#   ATTN_SKIP_CHECKS=1); bench.py's own knobs (ATTN_CHECKS, ATTN_REF_CHECKS,
#   ATTN_BENCH_SEQLENS, ATTN_BASELINES, ATTN_ITERS, ATTN_SHAPE_SECONDS,
#   ATTN_REF_BUDGET_S, ...) pass through
#   JOBS (parallel builds, default nproc), CHECK_JOBS (parallel driver and
#   sanitizer runs, default 6), NVCC, COMPUTE_SANITIZER, PYTHON, BUILD_DIR
#   (default build/attention-gpu), BUILD_TIMEOUT (300 s per build),
#   SANITIZER_TIMEOUT (120 s per run), SANITIZE_BUDGET (150 s for all the
#   sanitizer runs: later ones are skipped), DRIVER_TIMEOUT (60 s per run; a
#   library whose check times out is set aside), BENCH_TIMEOUT (480 s)
# Wheels in .whl/ (carried with the call) are installed first with
#   pip install --no-index --no-deps --target /tmp/site .whl/*.whl
# and put on PYTHONPATH; a failure is recorded and the run goes on.
set -uo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 OUT_DIR" >&2
  exit 2
fi
invoked_from=$PWD
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case $1 in
/*) out=$1 ;;
*) out=$invoked_from/$1 ;;
esac
cd "$repo" || exit 1
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
t_start=$(date +%s)

# Only this run's final files in OUT_DIR (never anything else it holds).
rm -f "$out"/{summary.json,attention.log,bench.json,attention-logs.tar.gz} \
  "$out"/attention-d{64,128,256}.png

main() {

if [[ ${ATTN_QUICK:-0} == 1 ]]; then
  export ATTN_CHECKS=${ATTN_CHECKS:-128x8,1000x8}
  export ATTN_REF_CHECKS=${ATTN_REF_CHECKS:-128x8,1000x2}
  export ATTN_BENCH_SEQLENS=${ATTN_BENCH_SEQLENS:-1024,4096,16384}
  export ATTN_ITERS=${ATTN_ITERS:-10}
fi

find_tool() { # NAME DEFAULT_PATH
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"; else echo "$2"; fi
}
NVCC_BIN=${NVCC:-$(find_tool nvcc /usr/local/cuda/bin/nvcc)}
SANITIZER_BIN=${COMPUTE_SANITIZER:-$(find_tool compute-sanitizer /usr/local/cuda/bin/compute-sanitizer)}
PYTHON_BIN=${PYTHON:-python3}
BUILD=${BUILD_DIR:-build/attention-gpu}
case $BUILD in /*) ;; *) BUILD=$repo/$BUILD ;; esac
WORK=$BUILD/run
LIB=$BUILD/lib
BIN=$BUILD/bin
rm -rf "$WORK" "$LIB" "$BIN"
mkdir -p "$WORK"/{logs,status,driver} "$LIB" "$BIN"
JOBS=${JOBS:-$(nproc)}
CHECK_JOBS=${CHECK_JOBS:-6}
SANITIZERS=${ATTN_SANITIZERS-racecheck synccheck}
export NVCC_BIN SANITIZER_BIN WORK LIB BIN
export BUILD_TIMEOUT=${BUILD_TIMEOUT:-300}
export SANITIZER_TIMEOUT=${SANITIZER_TIMEOUT:-120}
export SANITIZE_BUDGET=${SANITIZE_BUDGET:-150}
export DRIVER_TIMEOUT=${DRIVER_TIMEOUT:-60}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-480}
export NVCC_COMMON="-std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Iexamples/attention"

stamp() { echo "[$(($(date +%s) - t_start))s] $*"; }

# Step records: name <TAB> ok|FAIL|skipped <TAB> note.
steps=$WORK/steps.tsv
: >"$steps"
record() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$steps"; }

#===--- Variants --------------------------------------------------------===#

all=()
for t in bf16 f16; do
  for d in 64 128 256; do
    for m in full causal; do all+=("$t-d$d-$m"); done
  done
done
flags_of() { # variant -> its compile flags
  local t d m
  IFS=- read -r t d m <<<"$1"
  local f="-DTAWA_ATTENTION_HEAD_DIM=${d#d}"
  [[ $t == f16 ]] && f+=" -DTAWA_ATTENTION_F16"
  [[ $m == causal ]] && f+=" -DTAWA_ATTENTION_CAUSAL=1"
  printf '%s\n' "$f"
}
head_dim_of() {
  local t d m
  IFS=- read -r t d m <<<"$1"
  echo "${d#d}"
}
is_rewrite() { [[ -f gen/attention/$1.ws.cu ]] && grep -q 'tawa/runtime.cuh' "gen/attention/$1.ws.cu"; }
export -f flags_of head_dim_of

variants=()
if [[ -n ${ATTN_VARIANTS:-} ]]; then
  IFS=, read -r -a patterns <<<"$ATTN_VARIANTS"
  for v in "${all[@]}"; do
    for pat in "${patterns[@]}"; do
      # shellcheck disable=SC2053 # the pattern is meant to glob
      if [[ $v == $pat ]]; then
        variants+=("$v")
        break
      fi
    done
  done
else
  for v in "${all[@]}"; do
    if [[ -f gen/attention/$v.ws.cu ]]; then variants+=("$v"); fi
  done
  if [[ ${#variants[@]} -eq 0 ]]; then variants=("${all[@]}"); fi
fi
if [[ ${#variants[@]} -eq 0 ]]; then
  echo "attention-gpu: no variant matches ATTN_VARIANTS=$ATTN_VARIANTS"
  return 2
fi
rewritten=()
for v in "${variants[@]}"; do
  if is_rewrite "$v"; then
    rewritten+=("$v")
  elif [[ -f gen/attention/$v.ws.cu ]]; then
    record "rewritten $v" FAIL "gen/attention/$v.ws.cu does not include <tawa/runtime.cuh>: not a rewrite"
  else
    record "rewritten $v" FAIL "gen/attention/$v.ws.cu missing: reference and baselines only"
  fi
done
variant_list=$(
  IFS=,
  echo "${variants[*]}"
)

#===--- 0. The machine ---------------------------------------------------===#

stamp "attention-gpu: ${#variants[@]} variant(s), ${#rewritten[@]} rewritten: $variant_list"
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu \
    --format=csv 2>&1 | tee "$WORK/logs/nvidia-smi-before.csv"
fi
"$NVCC_BIN" --version 2>&1 | tail -2
if compgen -G ".whl/*.whl" >/dev/null; then
  if "$PYTHON_BIN" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir \
    --upgrade --target /tmp/site .whl/*.whl >"$WORK/logs/wheels.log" 2>&1; then
    export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
    record "wheels" ok "$(find .whl -name '*.whl' | wc -l) installed into /tmp/site"
  else
    record "wheels" FAIL "pip install failed (see logs/wheels.log); going on without them"
  fi
fi
"$PYTHON_BIN" -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)' 2>&1

# Triton's configurations compile in the background, beside the builds.
prewarm_pid=
if [[ ${ATTN_SKIP_BENCH:-0} != 1 || ${ATTN_SKIP_CHECKS:-0} != 1 ]] &&
  [[ ,${ATTN_BASELINES:-triton}, == *,triton,* ]]; then
  "$PYTHON_BIN" bench/attention/bench.py --prewarm-triton --variants "$variant_list" \
    --jobs "${PREWARM_JOBS:-6}" >"$WORK/logs/triton-prewarm.log" 2>&1 &
  prewarm_pid=$!
fi

#===--- 1. Builds ---------------------------------------------------------===#

# build_one KIND VARIANT: KIND ws (rewritten), ref (reference) or main.
build_one() {
  local kind=$1 v=$2 rc=0 t0 src log so
  t0=$(date +%s)
  read -r -a common <<<"$NVCC_COMMON"
  if [[ $kind == main ]]; then
    log=$WORK/logs/build-main.log
    timeout -k 10 "$BUILD_TIMEOUT" "$NVCC_BIN" "${common[@]}" -c examples/attention/main.cu \
      -o "$BIN/main.o" >"$log" 2>&1 || rc=$?
    echo "$rc $(($(date +%s) - t0))" >"$WORK/status/build-main"
    return 0
  fi
  read -r -a flags <<<"$(flags_of "$v")"
  if [[ $kind == ws ]]; then src=gen/attention/$v.ws.cu; else src=examples/attention/attention.cu; fi
  log=$WORK/logs/build-$v.$kind.log
  so=$LIB/$v.$kind.so
  echo "$NVCC_BIN ${common[*]} ${flags[*]} -Xcompiler -fPIC -shared -Xptxas -v -o $so $src" >"$log"
  timeout -k 10 "$BUILD_TIMEOUT" "$NVCC_BIN" "${common[@]}" "${flags[@]}" -Xcompiler -fPIC \
    -shared -Xptxas -v -o "$so" "$src" >>"$log" 2>&1 || rc=$?
  if [[ $rc -ne 0 ]]; then rm -f "$so"; fi
  echo "$rc $(($(date +%s) - t0))" >"$WORK/status/build-$v.$kind"
}
# link_one KIND VARIANT: the driver with one library.
link_one() {
  local kind=$1 v=$2 rc=0
  timeout -k 10 "$BUILD_TIMEOUT" "$NVCC_BIN" "$BIN/main.o" "$LIB/$v.$kind.so" \
    -o "$BIN/attention-check-$v.$kind" >"$WORK/logs/link-$v.$kind.log" 2>&1 || rc=$?
  echo "$rc" >"$WORK/status/link-$v.$kind"
}
export -f build_one link_one

stamp "1. building ${#variants[@]} reference and ${#rewritten[@]} rewritten libraries and the driver ($JOBS jobs)"
t0=$(date +%s)
{
  echo "main -"
  # The rewritten builds first: they are the ones that matter, and the longest.
  for v in "${rewritten[@]}"; do echo "ws $v"; done
  for v in "${variants[@]}"; do echo "ref $v"; done
} | xargs -P "$JOBS" -L 1 bash -c 'build_one "$@"' _
build_s=$(($(date +%s) - t0))

read -r main_rc _ <"$WORK/status/build-main" 2>/dev/null || main_rc=missing
if [[ $main_rc == 0 ]]; then
  record "build driver" ok "main.o"
else
  record "build driver" FAIL "exit $main_rc; see logs/build-main.log"
  tail -20 "$WORK/logs/build-main.log"
fi

# Per variant facts: variant <TAB> key <TAB> value.
facts=$WORK/facts.tsv
: >"$facts"
fact() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$facts"; }

links=()
for v in "${variants[@]}"; do
  for kind in ws ref; do
    st=$WORK/status/build-$v.$kind
    [[ -f $st ]] || continue
    read -r rc secs <"$st"
    log=$WORK/logs/build-$v.$kind.log
    if [[ $rc -ne 0 ]]; then
      fact "$v" "build_$kind" "FAIL (exit $rc)"
      record "build $v.$kind" FAIL "exit $rc after ${secs}s; see logs/build-$v.$kind.log"
      echo "--- build $v.$kind failed:"
      grep -E 'error|warning' "$log" | head -15
      continue
    fi
    fact "$v" "build_$kind" "ok ${secs}s"
    # The warp-specialized kernel's own lines (its name without
    # _reference): the kernel as written, also in the file as the fallback,
    # is portable tile code, free to spill.
    if [[ $kind == ws ]]; then
      kernel=$(grep -A3 "entry function '_Z13attention_fwdN" "$log")
    else
      kernel=$(cat "$log")
    fi
    regs=$(grep -oE 'Used [0-9]+ registers' <<<"$kernel" | grep -oE '[0-9]+' | sort -n | tail -1)
    stack=$(grep -oE '[0-9]+ bytes stack frame' "$log" | grep -oE '^[0-9]+' | sort -n | tail -1)
    fact "$v" "regs_$kind" "${regs:-?}"
    fact "$v" "stack_$kind" "${stack:-?}"
    if [[ $kind == ws ]]; then
      # Every line after the command line: nvcc's and ptxas's own output.
      warnings=$(tail -n +2 "$log" | grep -ciE 'warning|Potential Performance Loss|\(C7[0-9]{3}\)' || true)
      spills=$(grep -cE '(^|[^0-9])[1-9][0-9]* bytes spill (stores|loads)' <<<"$kernel" || true)
      if [[ $warnings -ne 0 || $spills -ne 0 ]]; then
        fact "$v" ptxas "FAIL ($warnings warnings, $spills spilling)"
        record "ptxas $v" FAIL "$warnings warning line(s), $spills line(s) with spills; see logs/build-$v.ws.log"
        echo "--- ptxas $v:"
        tail -n +2 "$log" | grep -iE 'warning|Potential Performance Loss|\(C7[0-9]{3}\)|[1-9][0-9]* bytes spill' | head -10
      else
        fact "$v" ptxas "ok"
      fi
    fi
    [[ $main_rc == 0 ]] && links+=("$kind $v")
  done
done
if [[ ${#links[@]} -gt 0 ]]; then
  printf '%s\n' "${links[@]}" | xargs -P "$JOBS" -L 1 bash -c 'link_one "$@"' _
fi
built_ws=0 built_ref=0
for v in "${variants[@]}"; do
  for kind in ws ref; do
    if [[ -f $WORK/status/link-$v.$kind ]]; then
      read -r rc <"$WORK/status/link-$v.$kind"
      if [[ $rc -ne 0 ]]; then
        record "link $v.$kind" FAIL "see logs/link-$v.$kind.log"
      elif [[ $kind == ws ]]; then
        built_ws=$((built_ws + 1))
      else
        built_ref=$((built_ref + 1))
      fi
    fi
  done
done
record "builds" ok "$built_ws rewritten and $built_ref reference drivers linked in ${build_s}s"
stamp "builds done in ${build_s}s: $built_ws rewritten, $built_ref reference"

#===--- 2. Driver checks ---------------------------------------------------===#

# drive_one KIND VARIANT: the driver's checks of one library.
drive_one() {
  local kind=$1 v=$2 rc=0 t0 log bin
  bin=$BIN/attention-check-$v.$kind
  log=$WORK/driver/check-$v.$kind.log
  t0=$(date +%s)
  local -a runs
  if [[ $kind == ws ]]; then
    runs=("--batch 1 --heads 4 --seqlen 128,1000,4096,16384"
      "--batch 2 --heads 3 --seqlen 1000 --seqlen-k 300"
      "--batch 2 --heads 3 --seqlen 300 --seqlen-k 1000")
  else
    runs=("--batch 1 --heads 2 --seqlen 128,200"
      "--batch 1 --heads 2 --seqlen 100 --seqlen-k 300")
  fi
  : >"$log"
  local i=0 r
  for r in "${runs[@]}"; do
    read -r -a a <<<"$r"
    echo "\$ $bin ${a[*]} --check-only --label $kind" >>"$log"
    local this=0
    timeout -k 10 "$DRIVER_TIMEOUT" "$bin" "${a[@]}" --check-only --label "$kind" \
      --json "$WORK/driver/check-$v.$kind.$i.json" >>"$log" 2>&1 || this=$?
    [[ $rc -eq 0 ]] && rc=$this
    i=$((i + 1))
    if [[ $this -eq 124 || $this -eq 137 ]]; then
      echo "timed out after ${DRIVER_TIMEOUT}s: the rest skipped" >>"$log"
      break
    fi
  done
  echo "$rc $(($(date +%s) - t0))" >"$WORK/status/drive-$v.$kind"
}
# sanitize_one TOOL VARIANT
sanitize_one() {
  local tool=$1 v=$2 rc=0 t0 log left limit
  local -a extra=()
  [[ $tool == memcheck ]] && extra=(--leak-check no)
  log=$WORK/logs/sanitizer-$tool-$v.log
  t0=$(date +%s)
  # The phase has a budget: a run that would start too late is skipped, and
  # none runs past the budget's end.
  left=$((SANITIZE_START + SANITIZE_BUDGET - t0))
  if [[ $left -lt 15 ]]; then
    echo "skip 0" >"$WORK/status/sanitize-$tool-$v"
    return 0
  fi
  limit=$((left < SANITIZER_TIMEOUT ? left : SANITIZER_TIMEOUT))
  timeout -k 10 "$limit" "$SANITIZER_BIN" --tool "$tool" --error-exitcode 99 \
    "${extra[@]}" "$BIN/attention-check-$v.ws" --batch 1 --heads 2 --seqlen 256,200 \
    --check-only --seed 1 --label "$tool" >"$log" 2>&1 || rc=$?
  echo "$rc $(($(date +%s) - t0))" >"$WORK/status/sanitize-$tool-$v"
}
export -f drive_one sanitize_one

if [[ ${ATTN_SKIP_DRIVER:-0} == 1 ]]; then
  record "driver checks" skipped "ATTN_SKIP_DRIVER=1"
else
  stamp "2. driver checks ($CHECK_JOBS at a time)"
  t0=$(date +%s)
  for v in "${variants[@]}"; do
    for kind in ws ref; do
      [[ -x $BIN/attention-check-$v.$kind ]] && echo "$kind $v"
    done
  done | xargs -P "$CHECK_JOBS" -L 1 bash -c 'drive_one "$@"' _
  n_ok=0 n_all=0
  for v in "${variants[@]}"; do
    for kind in ws ref; do
      st=$WORK/status/drive-$v.$kind
      [[ -f $st ]] || continue
      read -r rc secs <"$st"
      n_all=$((n_all + 1))
      log=$WORK/driver/check-$v.$kind.log
      passed=$(grep -c ' PASS' "$log" || true)
      total=$(grep -cE ' (PASS|FAIL)' "$log" || true)
      if [[ $rc -eq 0 ]]; then
        n_ok=$((n_ok + 1))
        fact "$v" "driver_$kind" "ok $passed/$total"
      elif [[ $rc -eq 124 || $rc -eq 137 ]]; then
        # A kernel that hangs would hang every later step: set it aside.
        fact "$v" "driver_$kind" "FAIL hang"
        record "driver $v.$kind" FAIL "timed out after ${DRIVER_TIMEOUT}s (a hang?); its library is set aside, later steps skip it"
        mv -f "$LIB/$v.$kind.so" "$LIB/$v.$kind.so.hung"
        rm -f "$BIN/attention-check-$v.$kind"
      else
        fact "$v" "driver_$kind" "FAIL $passed/$total (exit $rc)"
        record "driver $v.$kind" FAIL "exit $rc, $passed/$total shapes passed; see driver/check-$v.$kind.log"
        echo "--- driver $v.$kind:"
        grep -E 'FAIL|error|attention-check:' "$log" | head -6
      fi
    done
  done
  record "driver checks" "$([[ $n_ok -eq $n_all ]] && echo ok || echo FAIL)" \
    "$n_ok/$n_all libraries passed in $(($(date +%s) - t0))s"
  stamp "driver checks: $n_ok/$n_all libraries passed"
fi

#===--- 3. Sanitizers ------------------------------------------------------===#

if [[ -z $SANITIZERS ]]; then
  record "sanitizers" skipped "ATTN_SANITIZERS is empty"
elif [[ ! -x $SANITIZER_BIN ]] && ! command -v "$SANITIZER_BIN" >/dev/null 2>&1; then
  record "sanitizers" FAIL "$SANITIZER_BIN not found"
else
  stamp "3. compute-sanitizer $SANITIZERS ($CHECK_JOBS at a time, ${SANITIZE_BUDGET}s in all)"
  t0=$(date +%s)
  export SANITIZE_START=$t0
  for tool in $SANITIZERS; do
    for v in "${rewritten[@]}"; do
      [[ -x $BIN/attention-check-$v.ws ]] && echo "$tool $v"
    done
  done | xargs -P "$CHECK_JOBS" -L 1 bash -c 'sanitize_one "$@"' _
  n_ok=0 n_all=0
  for tool in $SANITIZERS; do
    for v in "${rewritten[@]}"; do
      st=$WORK/status/sanitize-$tool-$v
      [[ -f $st ]] || continue
      read -r rc secs <"$st"
      if [[ $rc == skip ]]; then
        fact "$v" "$tool" "skipped"
        record "$tool $v" skipped "the phase's budget (SANITIZE_BUDGET=${SANITIZE_BUDGET}s) was spent"
        continue
      fi
      n_all=$((n_all + 1))
      log=$WORK/logs/sanitizer-$tool-$v.log
      summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tr '\n' ' ' | sed 's/========= //g')
      if [[ $rc -eq 0 ]]; then
        n_ok=$((n_ok + 1))
        warn=$(grep -oE '[1-9][0-9]* warnings?' "$log" | head -1)
        fact "$v" "$tool" "ok${warn:+ ($warn)}"
      else
        case $rc in
        99) why="errors: $summary" ;;
        1) why="the driver's check failed under the sanitizer" ;;
        124 | 137) why="timed out after ${SANITIZER_TIMEOUT}s" ;;
        *) why="exit $rc: $summary" ;;
        esac
        fact "$v" "$tool" "FAIL"
        record "$tool $v" FAIL "$why; see logs/sanitizer-$tool-$v.log"
        echo "--- $tool $v: $why"
        grep -E '^========= (Error|Race|Warning|Invalid|Barrier)' "$log" | sort | uniq -c | sort -rn | head -5
      fi
    done
  done
  record "sanitizers" "$([[ $n_ok -eq $n_all ]] && echo ok || echo FAIL)" \
    "$n_ok/$n_all runs clean in $(($(date +%s) - t0))s"
  stamp "sanitizers: $n_ok/$n_all clean"
fi

#===--- 4. Driver timing ---------------------------------------------------===#

if [[ -n $prewarm_pid ]]; then
  stamp "waiting for Triton's background compilation"
  wait "$prewarm_pid"
  prc=$?
  tail -1 "$WORK/logs/triton-prewarm.log"
  [[ $prc -ne 0 ]] && record "triton prewarm" FAIL "exit $prc; see logs/triton-prewarm.log"
fi

if [[ ${ATTN_SKIP_DRIVER:-0} != 1 ]]; then
  stamp "4. driver timing at seqlen 4096, batch 4, 2048 / head_dim heads"
  for v in "${rewritten[@]}"; do
    bin=$BIN/attention-check-$v.ws
    [[ -x $bin ]] || continue
    d=$(head_dim_of "$v")
    log=$WORK/driver/time-$v.log
    rc=0
    timeout -k 10 "$DRIVER_TIMEOUT" "$bin" --batch 4 --heads $((2048 / d)) --seqlen 4096 \
      --iters 30 --label time --json "$WORK/driver/time-$v.json" >"$log" 2>&1 || rc=$?
    line=$(grep -E '^time ' "$log" | tail -1)
    echo "$line"
    tflops=$(grep -oE '[0-9.]+ TFLOP/s' <<<"$line" | grep -oE '^[0-9.]+')
    if [[ $rc -eq 0 && -n $tflops ]]; then
      fact "$v" driver_tflops "$tflops"
    else
      fact "$v" driver_tflops "FAIL"
      record "driver timing $v" FAIL "exit $rc; see driver/time-$v.log"
    fi
  done
fi

#===--- 5. bench.py --------------------------------------------------------===#

bench_rc=skipped
if [[ ${ATTN_SKIP_BENCH:-0} == 1 && ${ATTN_SKIP_CHECKS:-0} == 1 ]]; then
  record "bench.py" skipped "ATTN_SKIP_BENCH=1 and ATTN_SKIP_CHECKS=1"
else
  stamp "5. bench.py (checks, then the benchmark)"
  if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu \
      --format=csv >"$WORK/logs/nvidia-smi-bench-start.csv" 2>&1
  fi
  t0=$(date +%s)
  bench_rc=0
  PYTHONUNBUFFERED=1 timeout -k 15 "$BENCH_TIMEOUT" "$PYTHON_BIN" bench/attention/bench.py \
    --lib-dir "$LIB" --out "$WORK/bench" --variants "$variant_list" || bench_rc=$?
  if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu \
      --format=csv >"$WORK/logs/nvidia-smi-bench-end.csv" 2>&1
  fi
  case $bench_rc in
  0) record "bench.py" ok "checks and benchmark passed in $(($(date +%s) - t0))s" ;;
  124 | 137) record "bench.py" FAIL "timed out after ${BENCH_TIMEOUT}s" ;;
  *) record "bench.py" FAIL "exit $bench_rc after $(($(date +%s) - t0))s" ;;
  esac
fi

#===--- Summary ------------------------------------------------------------===#

cp "$WORK/bench/bench.json" "$out/" 2>/dev/null
cp "$WORK"/bench/attention-d*.png "$out/" 2>/dev/null
for v in "${rewritten[@]}"; do
  fact "$v" ws_sha256 "$(sha256sum "gen/attention/$v.ws.cu" | cut -c1-16)"
done
COMMIT=$(git rev-parse HEAD 2>/dev/null || echo unknown) \
  OUT_DIR=$out WORK=$WORK VARIANTS=$variant_list SANITIZERS=$SANITIZERS \
  ELAPSED=$(($(date +%s) - t_start)) "$PYTHON_BIN" - <<'EOF'
import csv, json, os, sys
work, out = os.environ["WORK"], os.environ["OUT_DIR"]
variants = os.environ["VARIANTS"].split(",")
tools = os.environ["SANITIZERS"].split()
tsv = dict(delimiter="\t", quoting=csv.QUOTE_NONE)
steps = [dict(zip(("step", "status", "note"), r)) for r in
         csv.reader(open(os.path.join(work, "steps.tsv")), **tsv)]
facts = {}
for v, k, val in csv.reader(open(os.path.join(work, "facts.tsv")), **tsv):
    facts.setdefault(v, {})[k] = val
bench = None
p = os.path.join(work, "bench", "bench-summary.json")
if os.path.exists(p):
    bench = json.load(open(p))
ok = all(s["status"] != "FAIL" for s in steps)
summary = {"pass": ok, "elapsed_s": int(os.environ["ELAPSED"]),
           "commit": os.environ.get("COMMIT", "unknown"),
           "variants": {v: facts.get(v, {}) for v in variants},
           "steps": steps, "bench": bench}
json.dump(summary, open(os.path.join(out, "summary.json"), "w"), indent=1)

cols = ["build_ws", "ptxas", "regs_ws", "driver_ws"] + tools + \
    ["driver_tflops", "build_ref", "driver_ref"]
names = {"build_ws": "build", "regs_ws": "regs", "driver_ws": "driver",
         "driver_tflops": "4k TFLOP/s", "build_ref": "ref build",
         "driver_ref": "ref driver"}
print("== per variant (rewritten; then the reference)")
print(f"{'variant':17s}" + "".join(f"{names.get(c, c):>12s}" for c in cols))
for v in variants:
    f = facts.get(v, {})
    cells = []
    for c in cols:
        x = f.get(c, "-")
        x = x.split(" (")[0] if x.startswith("FAIL") else x
        x = x.replace(" ", "")[:11] if c.startswith("build") else x[:11]
        cells.append(f"{x:>12s}")
    print(f"{v:17s}" + "".join(cells))
failed = [s for s in steps if s["status"] == "FAIL"]
print("== steps: " + "; ".join(f"{s['step']}: {s['status']} ({s['note']})"
                              for s in steps if s["step"] in
                              ("builds", "driver checks", "sanitizers",
                               "bench.py"))[:900])
for s in failed[:15]:
    print(f"   FAIL {s['step']}: {s['note'][:200]}")
if len(failed) > 15:
    print(f"   ... {len(failed) - 15} more (summary.json)")
table = os.path.join(work, "bench", "table.txt")
if os.path.exists(table):
    print(open(table).read().rstrip())
print(f"== attention-gpu: {'PASS' if ok else 'FAIL'} in {summary['elapsed_s']} s; "
      f"{out}: summary.json, attention.log, bench.json, attention-d*.png, "
      "attention-logs.tar.gz")
sys.exit(0 if ok else 1)
EOF
final_rc=$?
tar -czf "$out/attention-logs.tar.gz" -C "$WORK" . 2>/dev/null
return "$final_rc"
}

# Everything also goes to OUT_DIR/attention.log; the pipeline ends only when
# tee has written the last line.
main 2>&1 | tee "$out/attention.log"
exit "${PIPESTATUS[0]}"
