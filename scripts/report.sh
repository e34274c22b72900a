#!/usr/bin/env bash
# The main job: installs what is missing, builds the libraries and bngcert
# (nothing else: tests and benchmarks wait for scripts/test.sh), and writes the
# error report of the built kernels on the built-in case families to ./report/
# (report.md, report.html, report.json). Extra arguments go to `bngcert report`.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh release bngcert
./build/release/tools/bngcert/bngcert report --out report "$@"
