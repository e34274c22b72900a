#!/usr/bin/env bash
# Builds bng_bench_kernels (release preset), runs it, keeps the JSON under
# build/release/bench-results/ and regenerates the tables in
# docs/performance.md. Extra arguments go to the benchmark; when they hold a
# --benchmark_filter the run is partial, so the tables are printed instead of
# written into the docs. About 5 minutes a process on the 2-core machine; run
# it when nothing else does (docs/performance.md, "Noise").
# BNG_BENCH_BUILD_DIR=dir uses an already configured build directory instead
# of the release preset's. BNG_BENCH_PROCESSES=n (default 3) runs the
# benchmark n times, each a new process (its own heap and physical pages, a
# later moment of a shared machine), and pools their repetitions: from one
# process to the next the same row of the same binary moved by up to 1.4x
# (docs/performance.md, "Noise").
set -euo pipefail
cd "$(dirname "$0")/.."
processes="${BNG_BENCH_PROCESSES:-3}"
if ! [[ "$processes" =~ ^[1-9][0-9]*$ ]]; then
  echo "bench.sh: BNG_BENCH_PROCESSES must be a positive whole number, not '$processes'" >&2
  exit 2
fi
build="${BNG_BENCH_BUILD_DIR:-}"
if [[ -z "$build" ]]; then
  build=build/release
  cmake --preset release >/dev/null
fi
cmake --build "$build" -j "$(nproc)" --target bng_bench_kernels

results="$build/bench-results"
mkdir -p "$results"
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
outs=()
for ((i = 1; i <= processes; i++)); do
  out="$results/kernels-$stamp-p$i.json"
  "$build/bench/kernels/bng_bench_kernels" --benchmark_out="$out" \
    --benchmark_out_format=json "$@"
  outs+=("$out")
done

revision="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git status --porcelain -- include optimized 2>/dev/null)" ]]; then
  revision="$revision+uncommitted-kernel-changes"
fi
if [[ " $* " == *"--benchmark_filter"* ]]; then
  python3 scripts/perf_table.py "${outs[@]}" --revision "$revision"
else
  python3 scripts/perf_table.py "${outs[@]}" --revision "$revision" --update docs/performance.md
  echo "docs/performance.md updated from ${outs[*]}"
fi
