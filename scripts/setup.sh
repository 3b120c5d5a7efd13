#!/usr/bin/env bash
# Installs what tawa-rewrite needs on a Debian 12 machine (run as root) and
# builds it into build/. Safe to run again: installed packages are skipped.
#
#   Debian: clang-22 libclang-22-dev llvm-22-dev llvm-22-tools (lit,
#           FileCheck, not), libclang-rt-22-dev (libFuzzer and the
#           sanitizer runtimes of scripts/fuzz.sh), clang-tools-22
#           (clang-apply-replacements-22 for the --export-fixes test),
#           clang-tidy-22 (loads the tawa-* checks of tidy/ in the tests),
#           libcli11-dev, cmake, ninja-build and make (the CMake package's
#           test builds a sample project with both), python3-pip
#   CUDA:   nvcc from the CUDA 13 toolkit at ${CUDA_PATH:-/usr/local/cuda}
#           (compiles the rewritten kernels in the tests; no GPU needed)
#   PyPI:   cuobjdump and nvdisasm (nvidia-cuda-cuobjdump,
#           nvidia-cuda-nvdisasm) into .tools/ when the toolkit lacks them
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

packages=(clang-22 libclang-22-dev llvm-22-dev llvm-22-tools libclang-rt-22-dev clang-tools-22
  clang-tidy-22
  libcli11-dev cmake ninja-build make
  python3-pip unzip)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "== installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cuda=${CUDA_PATH:-/usr/local/cuda}
if [[ ! -x $cuda/bin/nvcc ]]; then
  echo "setup: no nvcc at $cuda/bin/nvcc; install the CUDA 13 toolkit or set CUDA_PATH" >&2
  exit 1
fi

# SASS tools for the compile checks of the test suite.
if [[ ! -x $cuda/bin/cuobjdump && ! -x .tools/cuda/bin/cuobjdump ]]; then
  echo "== fetching cuobjdump and nvdisasm into .tools/"
  tmp=$(mktemp -d)
  python3 -m pip download -q --no-deps -d "$tmp" nvidia-cuda-cuobjdump==13.2.86 \
    nvidia-cuda-nvdisasm==13.2.78
  mkdir -p .tools/cuda/bin
  for w in "$tmp"/*.whl; do
    unzip -q -o "$w" -d "$tmp/x"
  done
  find "$tmp/x" -type f \( -name cuobjdump -o -name nvdisasm \) -exec cp {} .tools/cuda/bin/ \;
  chmod +x .tools/cuda/bin/*
  rm -rf "$tmp"
fi

echo "== building tawa-rewrite"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTAWA_CUDA_PATH="$cuda" >/dev/null
cmake --build build
