#!/usr/bin/env bash
# Proves the property suite bites (issue 4): for each planted bug
# (-DBNG_PLANTED_BUG=one_ulp|reduction_order|write_before_validate) build only
# the two shared libraries with the bug, point the property tests at them
# (BNG_LIB_FT78NE / BNG_LIB_MT7004: the runner dlopens whatever they name) and
# run a reduced property suite. Exits 0 only if the suite passes on the
# unplanted libraries (baseline) and EVERY planted bug made it fail; a suite
# that passes on a planted bug is vacuous somewhere. Exit 2: baseline fails.
#
# The property tests themselves come from an unplanted build: build/release
# (the preset scripts/test.sh builds) unless BNG_BITES_TESTS_BUILD names
# another; built here if missing. Usage: scripts/bites.sh [bug...]
# Time: ~1 min per bug to build the libraries, ~1-2 min to run (2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bugs=("$@")
if ((${#bugs[@]} == 0)); then bugs=(one_ulp reduction_order write_before_validate); fi

tests_build=${BNG_BITES_TESTS_BUILD:-build/release}
if [[ ! -f "$tests_build/CMakeCache.txt" ]]; then
  cmake --preset release >/dev/null
fi
cmake --build "$tests_build" --target properties_tests -j2 >/dev/null
exe="$tests_build/tests/properties/properties_tests"

# The suite every bug faces — not tailored per bug: accuracy on every entry
# point, bit identity, the status rules and the hard cases, 100 cases each.
filter="Accuracy.*:Reproducible.*:ReproducibleLarge.*:EveryMask.*:FormsIdentical.*:InPlace.*:Status.*:EveryFault.*:HardCases.*"
seed=${BNG_BITES_SEED:-20261129}

# Baseline: the same suite on the unplanted libraries must pass, or a planted
# bug "caught" could be a real failure the suite would report anyway.
echo "=== baseline: unplanted libraries of $tests_build"
if ! RC_PARAMS="seed=$seed max_success=100" "$exe" --gtest_filter="$filter" >"$tests_build/bites-baseline.log" 2>&1; then
  echo "    the suite already FAILS without a planted bug; bites inconclusive. Failing tests:"
  grep '^\[  FAILED  \] [A-Za-z].*(' "$tests_build/bites-baseline.log" | sed 's/^/      /' | head -30
  echo "bites: FAIL — fix the baseline first (log: $tests_build/bites-baseline.log)"
  exit 2
fi
echo "    passes"

failed_to_bite=()
for bug in "${bugs[@]}"; do
  build="build/bites/$bug"
  echo "=== planted bug: $bug"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBNG_PLANTED_BUG="$bug" \
        -DBNG_BUILD_TESTS=OFF -DBNG_BUILD_TOOLS=OFF -DBNG_BUILD_BENCH=OFF >/dev/null
  cmake --build "$build" --target batchnormgrad_ft78ne batchnormgrad_mt7004 -j2 >/dev/null
  log="$build/suite.log"
  set +e
  BNG_LIB_FT78NE="$root/$build/optimized/libbatchnormgrad_ft78ne.so" \
  BNG_LIB_MT7004="$root/$build/optimized/libbatchnormgrad_mt7004.so" \
  RC_PARAMS="seed=$seed max_success=100" \
    "$exe" --gtest_filter="$filter" >"$log" 2>&1
  rc=$?
  set -e
  if ((rc == 0)); then
    echo "    NOT CAUGHT: the property suite passed with $bug planted (log: $log)"
    failed_to_bite+=("$bug")
  else
    echo "    caught (suite exit $rc); failing tests:"
    grep '^\[  FAILED  \] [A-Za-z].*(' "$log" | sed 's/^/      /' | head -30
  fi
done

if ((${#failed_to_bite[@]} > 0)); then
  echo "bites: FAIL — planted bugs not caught: ${failed_to_bite[*]}"
  exit 1
fi
echo "bites: every planted bug (${bugs[*]}) made the property suite fail"
