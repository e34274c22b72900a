#!/usr/bin/env bash
# The main job: installs what is missing, builds, and writes the error report
# of the built kernels on the built-in case families to ./report/ (report.md,
# report.html, report.json). Extra arguments go to `bngcert report`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh release
./build/release/tools/bngcert/bngcert report --out report "$@"
