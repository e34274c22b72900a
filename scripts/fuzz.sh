#!/usr/bin/env bash
# Builds the libFuzzer target under the clang `fuzz` preset (ASan+UBSan) and
# runs it for a bounded time, starting from the checked-in corpus
# (tests/fuzz/corpus). New inputs go to build/fuzz/corpus-work, never into the
# checked-in corpus; a crashing input lands in build/fuzz/artifacts/ and the
# script fails, printing the reproducer the check wrote and how to rerun it.
# Usage: scripts/fuzz.sh [seconds]   (default 60; BNG_FUZZ_SECONDS also works)
# Time: ~3-4 min to build from scratch on 2 cores, then the given seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-${BNG_FUZZ_SECONDS:-60}}

if [[ ! -f build/fuzz/CMakeCache.txt ]]; then
  cmake --preset fuzz >/dev/null
fi
cmake --build build/fuzz --target fuzz_batchnormgrad -j2 >/dev/null
exe=build/fuzz/tests/fuzz/fuzz_batchnormgrad
work=build/fuzz/corpus-work
artifacts=build/fuzz/artifacts
mkdir -p "$work" "$artifacts"

echo "fuzz: ${seconds}s on $(nproc) cores, corpus tests/fuzz/corpus"
set +e
# -timeout: one input (24x24 at most) takes milliseconds; 10 s means a hang.
"$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
       -artifact_prefix="$artifacts/" "$work" tests/fuzz/corpus 2>&1 | tail -n 40
rc=${PIPESTATUS[0]}
set -e
if ((rc != 0)); then
  echo "fuzz: FAILED (exit $rc). Rerun one input with: $exe $artifacts/<crash-file>"
  exit "$rc"
fi
echo "fuzz: no failure in ${seconds}s"
