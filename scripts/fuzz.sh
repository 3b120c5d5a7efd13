#!/usr/bin/env bash
# Bounded fuzzing with ASan and UBSan (CI runs it after the lit suite):
# builds fuzz/ into build-fuzz/ with clang++-22 and runs each target for
# FUZZ_SECONDS (default 60) seconds. A crash, a sanitizer report or a failed
# invariant fails the script; the reproducer is left in build-fuzz/crashes/.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
seconds=${FUZZ_SECONDS:-60}
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++-22 -DTAWA_FUZZ=ON >/dev/null
cmake --build build-fuzz --target pragma_fuzzer rewrite_fuzzer legacy_fuzzer
mkdir -p build-fuzz/crashes
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run() { # name, then flags and seed directories (new inputs go to a temporary corpus)
  local name=$1
  shift
  local corpus
  corpus=$(mktemp -d)
  echo "== fuzzing $name for ${seconds}s"
  local rc=0
  build-fuzz/fuzz/$name -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 \
    -artifact_prefix=build-fuzz/crashes/$name- -print_final_stats=1 "$corpus" "$@" \
    >build-fuzz/$name.log 2>&1 || rc=$?
  grep -E '^(Done|stat::number_of_executed_units|==[0-9]+==|SUMMARY)|runtime error' \
    build-fuzz/$name.log || true
  rm -rf "$corpus"
  if [[ $rc -ne 0 ]]; then
    echo "fuzz: $name failed (exit $rc); reproducers in build-fuzz/crashes/" >&2
    return 1
  fi
}
run pragma_fuzzer -dict=fuzz/pragma.dict fuzz/seeds/pragma
run rewrite_fuzzer
run legacy_fuzzer -max_len=8192 fuzz/seeds/legacy
echo "fuzz: no crash"
