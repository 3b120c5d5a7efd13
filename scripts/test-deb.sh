#!/usr/bin/env bash
# Installs the .deb in a clean Debian 12 (bookworm) made by debootstrap and
# runs it there: tawa-rewrite --version, a rewrite, clang-tidy-22 with the
# module (and its fix), and find_package(TawaRewrite) in a CMake project.
# Run by hand, as root, on Debian with network access to deb.debian.org
# (a few minutes: debootstrap, then the LLVM 22 packages the .deb pulls in
# from bookworm-security). Not part of scripts/test.sh; docs/install.md.
#
#   bash scripts/test-deb.sh [ROOT]   # ROOT: where to make the chroot
#                                     # (default: a new temporary directory)
# KEEP_ROOT=1 leaves the chroot; the .deb is made with cpack from build/.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
root=${1:-$(mktemp -d /tmp/tawa-deb-root.XXXXXX)}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

if [[ $(id -u) -ne 0 ]]; then
  echo "test-deb: run as root (debootstrap and chroot)" >&2
  exit 1
fi
command -v debootstrap >/dev/null || {
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
}

echo "== making the .deb (cpack, from build/)"
[[ -f build/CPackConfig.cmake ]] || bash scripts/setup.sh
cmake --build build >/dev/null
out=$(mktemp -d)
cpack --config build/CPackConfig.cmake -B "$out" >/dev/null
deb=$(ls "$out"/tawa-rewrite_*.deb)
echo "   $deb"

if [[ ! -x $root/usr/bin/apt-get ]]; then
  echo "== debootstrap bookworm into $root"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 || {
    tail -20 "$root.debootstrap.log" >&2
    exit 1
  }
fi
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[$i]}" 2>/dev/null || true; done
  rm -rf "$out"
  if [[ ${KEEP_ROOT:-0} != 1 ]]; then rm -rf "$root" "$root.debootstrap.log"; fi
}
trap cleanup EXIT
for m in proc sys dev; do
  mount --bind "/$m" "$root/$m" && mounted+=("$root/$m")
done

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }
# A command (one string) and its output, as a transcript.
show() {
  echo "\$ $1"
  in_root bash -c "$1" 2>&1
}

echo "== installing the .deb and clang-tidy-22 with apt (nothing else installed by hand)"
rm -rf "$root/tmp/tawa" && mkdir -p "$root/tmp/tawa"
cp "$deb" "$root/tmp/tawa/"
cp -r test/Inputs/cuda "$root/tmp/tawa/cuda"
cp test/emit/gemm.cu "$root/tmp/tawa/gemm.cu"
in_root apt-get update -qq >"$root/tmp/tawa/apt-update.log" 2>&1 || {
  cat "$root/tmp/tawa/apt-update.log" >&2
  exit 1
}
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
  "/tmp/tawa/$(basename "$deb")" clang-tidy-22 >"$root/tmp/tawa/apt.log" 2>&1 || {
  tail -30 "$root/tmp/tawa/apt.log" >&2
  exit 1
}
grep -E '^(Setting up|Unpacking) (tawa-rewrite|libclang-cpp22|libllvm22|libclang-common-22-dev|clang-tidy-22|cmake)(:[a-z0-9]+)? ' \
  "$root/tmp/tawa/apt.log" | sed 's/^/   /' || true

echo "== in the chroot"
show "cat /etc/debian_version"
show "dpkg -s tawa-rewrite | grep -E '^(Status|Version|Depends):'"
show "tawa-rewrite --version"
# No CUDA toolkit in the chroot: the test suite's stand-in headers.
flags="-nocudainc -nocudalib -isystem /tmp/tawa/cuda"
show "cd /tmp/tawa && cp gemm.cu a.cu && tawa-rewrite a.cu -o a.ws.cu -- $flags && grep -c gemm_nt_launch a.ws.cu"
show "clang-tidy-22 --load=/usr/lib/tawa-rewrite/libtawa-tidy.so --list-checks -checks='-*,tawa-*'"
show "tawa-clang-tidy --list-checks -checks='-*,tawa-w*'"
show "mkdir -p /tmp/tawa/tidy && cp /tmp/tawa/gemm.cu /tmp/tawa/tidy/ && clang-tidy-22 --load=/usr/lib/tawa-rewrite/libtawa-tidy.so -checks='-*,tawa-*' --fix /tmp/tawa/tidy/gemm.cu -- --cuda-host-only $flags 2>&1 | grep -E 'warning:|applied'"
show "tawa-rewrite -i /tmp/tawa/gemm.cu -- $flags && diff -s /tmp/tawa/gemm.cu /tmp/tawa/tidy/gemm.cu"
mkdir -p "$root/tmp/tawa/project"
cat >"$root/tmp/tawa/project/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(uses_tawa LANGUAGES NONE)
find_package(TawaRewrite REQUIRED)
get_target_property(tool TawaRewrite::tawa-rewrite LOCATION)
message(STATUS "TawaRewrite ${TawaRewrite_VERSION}: ${tool}; clang-tidy module ${TawaRewrite_CLANG_TIDY_MODULE}")
if(NOT COMMAND tawa_rewrite_sources)
  message(FATAL_ERROR "no tawa_rewrite_sources")
endif()
EOF
show "cmake -S /tmp/tawa/project -B /tmp/tawa/project/build | grep TawaRewrite"
echo "== the .deb installs and runs on a clean Debian 12"
