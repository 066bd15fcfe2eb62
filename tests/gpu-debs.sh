#!/usr/bin/env bash
# gpu-debs.sh - download the Debian packages that tests/gpu-check.sh unpacks on a GPU machine
# lacking them (jansson, hwloc, the OpenCL loader and headers, make) into .debs/ (git-ignored:
# carry it). Run here, where Debian's archive is reachable.
set -eu
cd "$(dirname "$0")/.."
mkdir -p .debs /tmp/gmb-apt/partial
o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/gmb-apt)
apt-get "${o[@]}" update -q >/dev/null
cd .debs
# libudev1 and libxml2: fallbacks only (gpu-check puts them behind the machine's own)
apt-get "${o[@]}" download libjansson4 libjansson-dev libhwloc15 libhwloc-dev hwloc \
    libxml2 libudev1 ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers \
    opencl-clhpp-headers make
ls -1 "$PWD"
# the commit of the tree that travels: the lending tool sends the working tree over the
# checkout the session started from, where git describe sees that one (run this again just
# before each call; gpu-check builds with it)
git -C .. describe --always --dirty --abbrev=12 >REV
echo "REV: $(cat REV)"
