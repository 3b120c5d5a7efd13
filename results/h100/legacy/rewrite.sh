#!/usr/bin/env bash
# Migrates examples/legacy/legacy.cu (hand-written shared-memory GEMMs)
# into its tile-vocabulary form (tawa-rewrite --migrate) and rewrites that
# (tawa-rewrite), into GEN_DIR (default gen/legacy). Runs where tawa-rewrite
# is built (no GPU needed); gpu.sh compiles and runs the outputs.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$repo"
tool=${TAWA_REWRITE:-build/tool/tawa-rewrite/tawa-rewrite}
gen=${GEN_DIR:-gen/legacy}
mkdir -p "$gen"
"$tool" examples/legacy/legacy.cu --migrate -o "$gen/legacy.migrated.cu" -- -Iexamples/legacy
"$tool" "$gen/legacy.migrated.cu" -o "$gen/legacy.ws.cu" -- -Iexamples/legacy
(cd "$gen" && sha256sum ./*.cu)
