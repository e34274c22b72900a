#!/usr/bin/env bash
# The default test suite: installs what is missing, builds the release preset,
# runs every test not behind a label (campaign, browser, expected-failure).
# Extra arguments go to ctest (e.g. -R reference, -L campaign).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh release
ctest --preset release -j "$(nproc)" "$@"
