#!/usr/bin/env bash
# Installs, with apt-get, the Debian 12 packages the project needs and are
# missing; prints what it installs, and nothing else to do when all are there.
# Idempotent: run it as often as you like. Needs root (or sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build git pkg-config python3
  ccache                                     # compiler cache for the scripts' several build trees
  clang libclang-rt-14-dev clang-format      # libFuzzer target, clang build check
  libboost-dev                               # Boost.Multiprecision (the exact reference)
  libgmp-dev libmpfr-dev                     # MPFR: independent check of the reference's rounding
  libhwy-dev                                 # Highway: vector abstraction and ISA dispatch
  librapidcheck-dev libgtest-dev libgmock-dev
  libbenchmark-dev libdnnl-dev               # benchmarks against oneDNN
  libcli11-dev nlohmann-json3-dev libfmt-dev # bngcert
  libssl-dev                                 # bngcert: SHA-256 (libcrypto) of packs, libraries, certificates
  openssh-client                             # bngcert sign / verify --signature: ssh-keygen -Y
  gappa                                      # proofs/: the kernels' error bounds
  parallel                                   # tests/cluster: sharded campaigns through GNU parallel
  patch                                      # scripts/bites.sh: plants bugs in a scratch copy
  python3-dev python3-pybind11 python3-numpy python3-pytest  # the Python package batchnormgrad (python/)
)
# PyTorch's drop-in BatchNorm, audit and the digits example (about 1 GB installed).
if [[ "${BNG_SETUP_TORCH:-0}" == 1 ]]; then
  packages+=(python3-torch python3-sklearn python3-matplotlib)
fi
if [[ "${BNG_SETUP_BROWSER:-0}" == 1 ]]; then packages+=(chromium); fi
if [[ "${BNG_SETUP_CLUSTER:-0}" == 1 ]]; then packages+=(slurm-wlm munge); fi # ctest -L cluster
# The aarch64 cross build (scripts/aarch64.sh): Debian's cross compiler, qemu-user
# to run its tests, and the arm64 builds of the libraries it links (multiarch).
if [[ "${BNG_SETUP_AARCH64:-0}" == 1 ]]; then
  packages+=(g++-aarch64-linux-gnu qemu-user)
  packages+=(libhwy-dev:arm64 libboost-dev:arm64 librapidcheck-dev:arm64 libgtest-dev:arm64)
  packages+=(libgmock-dev:arm64 libgmp-dev:arm64 libmpfr-dev:arm64 libssl-dev:arm64)
  packages+=(libfmt-dev:arm64)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi
echo "setup: installing ${missing[*]}"
sudo_cmd=()
if ((EUID != 0)); then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
if [[ "${BNG_SETUP_AARCH64:-0}" == 1 ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  "${sudo_cmd[@]}" dpkg --add-architecture arm64
fi
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
