#!/usr/bin/env bash
# deps.sh - install (as root) or name (otherwise) the Debian packages gmb needs.
#   deps.sh run   what building and running needs
#   deps.sh all   that plus what the tests need
set -u
run_pkgs="build-essential pkg-config libjansson-dev libhwloc-dev hwloc ocl-icd-opencl-dev
          opencl-headers pocl-opencl-icd clinfo gnuplot-nox"
test_pkgs="libcmocka-dev clang-format python3-jsonschema man-db clang libclang-rt-dev"
pkgs=$run_pkgs
[ "${1:-run}" = all ] && pkgs="$run_pkgs $test_pkgs"
if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: not a Debian system; install the equivalents of: $(echo $pkgs)" >&2
    exit 0
fi
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "deps: installing:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends $missing >/dev/null ||
        { echo "deps: apt-get failed" >&2; exit 1; }
else
    echo "deps: missing packages; run: sudo apt-get install -y$missing" >&2
    exit 1
fi
