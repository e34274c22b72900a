#!/usr/bin/env bash
# Configures and builds one preset (default: release) with every core; further
# arguments are the targets to build (default: everything).
set -euo pipefail
preset="${1:-release}"
shift || true
cd "$(dirname "$0")/.."
cmake --preset "$preset" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build --preset "$preset" -j "$(nproc)" "${targets[@]}"
