#!/usr/bin/env bash
# Builds the libFuzzer targets under the clang `asan` preset (ASan+UBSan; after
# scripts/sanitize.sh asan they are already built) and runs each for a bounded
# time, starting from its checked-in corpus:
#   fuzz_batchnormgrad   bytes -> one kernel call      (tests/fuzz/corpus)
#   fuzz_npy, fuzz_pack_manifest, fuzz_shard_dir, fuzz_certificate
#                        bytes -> one file bngcert reads (tests/fuzz/corpus-<reader>,
#                        tests/fuzz/readers/README.md)
# New inputs go to build/asan/corpus-work/<target>, never into the checked-in
# corpora; a crashing input lands in build/asan/artifacts/<target>/ and the
# script fails, printing how to rerun it.
# Usage: scripts/fuzz.sh [seconds [reader-seconds]]   (default 60 for the kernel
# fuzzer, 20 for each reader; BNG_FUZZ_SECONDS and BNG_FUZZ_READER_SECONDS also work)
# Time: ~11 min to build from scratch on 2 cores (none after sanitize.sh asan),
# then the given seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-${BNG_FUZZ_SECONDS:-60}}
reader_seconds=${2:-${BNG_FUZZ_READER_SECONDS:-20}}
readers=(npy pack_manifest shard_dir certificate)

if [[ ! -f build/asan/CMakeCache.txt ]]; then
  cmake --preset asan >/dev/null
fi
targets=(fuzz_batchnormgrad)
for r in "${readers[@]}"; do targets+=("fuzz_$r"); done
cmake --build build/asan --target "${targets[@]}" -j2 >/dev/null

# run TARGET CORPUS SECONDS TIMEOUT
run() {
  local target=$1 corpus=$2 time=$3 timeout=$4
  local exe=build/asan/tests/fuzz/$target work=build/asan/corpus-work/$target
  local artifacts=build/asan/artifacts/$target
  mkdir -p "$work" "$artifacts"
  echo "fuzz: $target for ${time}s on $(nproc) cores, corpus $corpus"
  set +e
  "$exe" -max_total_time="$time" -timeout="$timeout" -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$work" "$corpus" 2>&1 | tail -n 25
  local rc=${PIPESTATUS[0]}
  set -e
  if ((rc != 0)); then
    echo "fuzz: $target FAILED (exit $rc). Rerun one input with: $exe $artifacts/<crash-file>"
    exit "$rc"
  fi
}

# -timeout: one kernel input (24x24 at most) takes milliseconds; a file of a
# few kilobytes is read in less. 10 s means a hang.
run fuzz_batchnormgrad tests/fuzz/corpus "$seconds" 10
for r in "${readers[@]}"; do run "fuzz_$r" "tests/fuzz/corpus-$r" "$reader_seconds" 10; done
echo "fuzz: no failure (kernel ${seconds}s, each reader ${reader_seconds}s)"
