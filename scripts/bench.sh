#!/usr/bin/env bash
# Builds bng_bench_kernels (release preset), runs it, keeps the JSON under
# build/release/bench-results/ and regenerates the tables in
# docs/performance.md. Extra arguments go to the benchmark; when they hold a
# --benchmark_filter the run is partial, so the tables are printed instead of
# written into the docs. About 5 minutes on the 2-core machine; run it when
# nothing else does (docs/performance.md, "Noise"). BNG_BENCH_BUILD_DIR=dir
# uses an already configured build directory instead of the release preset's.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BNG_BENCH_BUILD_DIR:-}"
if [[ -z "$build" ]]; then
  build=build/release
  cmake --preset release >/dev/null
fi
cmake --build "$build" -j "$(nproc)" --target bng_bench_kernels

results="$build/bench-results"
mkdir -p "$results"
out="$results/kernels-$(date -u +%Y%m%dT%H%M%SZ).json"
"$build/bench/kernels/bng_bench_kernels" --benchmark_out="$out" \
  --benchmark_out_format=json "$@"

revision="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git status --porcelain -- include optimized 2>/dev/null)" ]]; then
  revision="$revision+uncommitted-kernel-changes"
fi
if [[ " $* " == *"--benchmark_filter"* ]]; then
  python3 scripts/perf_table.py "$out" --revision "$revision"
else
  python3 scripts/perf_table.py "$out" --revision "$revision" --update docs/performance.md
  echo "docs/performance.md updated from $out"
fi
