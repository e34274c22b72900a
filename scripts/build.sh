#!/usr/bin/env bash
# Configures and builds one preset (default: release) with every core.
set -euo pipefail
preset="${1:-release}"
cd "$(dirname "$0")/.."
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
