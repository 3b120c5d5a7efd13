#!/usr/bin/env bash
# The test command: set-up (scripts/setup.sh), then the lit suite, including
# the nvcc compile and SASS checks of the rewritten kernels.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
bash scripts/setup.sh
log=$(mktemp)
rc=0
/usr/lib/llvm-22/bin/lit -sv build/test "$@" 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | head -n 1)
failed=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$log" | head -n 1)
unresolved=$(sed -n 's/^ *Unresolved *: *\([0-9]*\).*/\1/p' "$log" | head -n 1)
rm -f "$log"
summary="${passed:-0} passed, $((${failed:-0} + ${unresolved:-0})) failed"
echo "$summary"
echo "$summary" >build/test-summary.txt
exit "$rc"
