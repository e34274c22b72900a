#!/usr/bin/env bash
# Builds one sanitizer preset (asan = AddressSanitizer+UBSan with clang, tsan =
# ThreadSanitizer with gcc) and runs the tests labelled `sanitize` (reduced
# counts). The build presets build only those tests' executables (target
# sanitize_tests); the asan build also holds the libFuzzer targets, whose
# corpus replays are among them and which scripts/fuzz.sh then runs.
set -euo pipefail
preset="${1:?usage: scripts/sanitize.sh asan|tsan}"
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh "$preset"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:${TSAN_OPTIONS:-}"
ctest --preset "$preset" -j "$(nproc)"
