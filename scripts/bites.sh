#!/usr/bin/env bash
# Proves the test suite bites: each patch in tests/bites/ plants one bug in a
# scratch copy of the sources (production code carries no test switches), the
# libraries and the kernel tests are rebuilt from that copy, and the suite
# below must FAIL. Exits 0 only if the suite passes on the unpatched copy
# (baseline) and every patch made it fail; exit 1 when a plant went
# unnoticed, 2 when the baseline fails or a patch no longer applies.
# docs/testing.md says what each plant proves.
#
# The suite every plant faces (not tailored per plant; it stops at the first
# failing part, so that caught plants cost little):
#   1. kernel tests of the copy: vector vs scalar lanes on identical channels,
#      exact compensated block sums, and every ISA path against the portable
#      one (bit for bit), binary16 results of binary64 rounded once on every path,
#      inference dx rounded once (the dispatched path);
#   2. the property suite (from build/release, unplanted) against the copy's
#      shared libraries: accuracy, bit identity, in place, status rules, hard
#      cases, 100 cases each;
#   3. the copy's reference (the judge itself): the tiered path against the
#      exact one (bng_reference_tiered_test, the quick parts, and RowsReady)
#      and the Gappa proof of the tiered bound on the copy's constants
#      (proof.tiered_bound*).
# Usage: scripts/bites.sh [plant...]   (names of tests/bites/*.patch)
#        scripts/bites.sh --check-patches   (only: does every patch still apply
#        to the sources? seconds; the default test suite runs it, so that a
#        refactor that moves a planted line fails there, not in CI's bites)
# Time: ~2-4 min per plant on 2 cores (incremental rebuild of the patched file).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if [[ "${1:-}" == --check-patches ]]; then
  stale=()
  for p in tests/bites/*.patch; do
    patch -p1 --dry-run --quiet --forward <"$p" >/dev/null || stale+=("$p")
  done
  if ((${#stale[@]})); then
    echo "bites: these patches no longer apply to the sources; regenerate them: ${stale[*]}"
    exit 1
  fi
  echo "bites: every patch in tests/bites/ applies"
  exit 0
fi
plants=("$@")
if ((${#plants[@]} == 0)); then
  for p in tests/bites/*.patch; do plants+=("$(basename "$p" .patch)"); done
fi

tests_build=${BNG_BITES_TESTS_BUILD:-build/release}
if [[ ! -f "$tests_build/CMakeCache.txt" ]]; then
  cmake --preset release >/dev/null
fi
cmake --build "$tests_build" --target properties_tests -j2 >/dev/null
prop_exe="$root/$tests_build/tests/properties/properties_tests"

# The scratch copy: the files git knows (tracked, or new and not ignored).
scratch=$root/build/bites
src=$scratch/src
build=$scratch/build
rm -rf "$src"
mkdir -p "$src"
git ls-files -z --cached --others --exclude-standard | grep -zv '^build/' |
  xargs -0 cp --parents -t "$src"
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBNG_BUILD_TOOLS=OFF \
      -DBNG_BUILD_BENCH=OFF >/dev/null
# Every target of the registry (optimized/include/bng/optimized/targets.inc).
mapfile -t targets < <(sed -n 's/^BNG_TARGET(\([a-z0-9_]*\),.*/\1/p' \
                         "$root/optimized/include/bng/optimized/targets.inc")
kernel_tests=()
libraries=()
lib_env=()
for t in "${targets[@]}"; do
  kernel_tests+=("kernels_${t}_determinism_test" "kernels_${t}_isa_paths_test" "kernels_${t}_test")
  libraries+=("batchnormgrad_$t")
  lib_env+=("BNG_LIB_${t^^}=$build/optimized/libbatchnormgrad_$t.so")
done
prop_filter="Accuracy.*:Reproducible.*:ReproducibleLarge.*:EveryMask.*:FormsIdentical.*:InPlace.*:Status.*:EveryFault.*:HardCases.*"
seed=${BNG_BITES_SEED:-20261129}

# Builds the copy and runs the suite; returns nonzero at its first failure.
# Output goes to $1.
run_suite() {
  local log=$1
  : >"$log"
  cmake --build "$build" --target "${libraries[@]}" "${kernel_tests[@]}" \
        -j2 >>"$log" 2>&1 || { echo "BUILD FAILED" >>"$log"; return 3; }
  local t
  for t in "${kernel_tests[@]}"; do
    "$build/tests/kernels/$t" \
      --gtest_filter='*IdenticalChannelsGiveIdenticalBits:*CompensatedBlockSums*:*EveryPathGivesThePortableBits:*EveryPathRoundsBinary16Once:*InferenceDxIsRoundedOnce*' \
      >>"$log" 2>&1 || return 1
  done
  env "${lib_env[@]}" \
  RC_PARAMS="seed=$seed max_success=100 noshrink=1" \
    "$prop_exe" --gtest_filter="$prop_filter" >>"$log" 2>&1 || return 1
  cmake --build "$build" --target bng_reference_tiered_test bng_gappa_constants \
        -j2 >>"$log" 2>&1 || { echo "BUILD FAILED" >>"$log"; return 3; }
  "$build/tests/reference/bng_reference_tiered_test" \
    --gtest_filter='*RandomBitPatterns:*Midpoints:*BatchOne:RowsReady.*' >>"$log" 2>&1 || return 1
  ctest --test-dir "$build" -R '^proof\.(build_constants|tiered_bound)' --output-on-failure \
    >>"$log" 2>&1 || { echo "[  FAILED  ] proof.tiered_bound (ctest)" >>"$log"; return 1; }
}

failing_tests() {
  grep -E '^\[  FAILED  \] [A-Za-z].*\(|BUILD FAILED' "$1" | sed 's/^/      /' | head -20
}

# The copy is built at -O2 (RelWithDebInfo), the default suite at -O3: the
# baseline also checks the recorded output hashes (tests/kernels) on the
# dispatched path and on AVX2 (what most users run; on an AVX-512 machine it
# runs only when forced), so that the bits are seen not to depend on the
# optimisation level (SPEC §4) without a build of its own. The runs of one
# target go side by side on the two cores. Not part of the suite each plant
# faces.
recorded_bits() {
  local log=$1 t isa pid status=0 hash_tests=() pids=()
  for t in "${targets[@]}"; do hash_tests+=("kernels_${t}_output_hash_test"); done
  cmake --build "$build" --target "${hash_tests[@]}" -j2 >>"$log" 2>&1 || return 3
  for t in "${hash_tests[@]}"; do
    pids=()
    for isa in dispatched avx2; do
      # An empty BNG_ISA is the dispatched path, whatever the caller exported.
      BNG_ISA=${isa#dispatched} "$build/tests/kernels/$t" >"$log.$isa" 2>&1 &
      pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
    for isa in dispatched avx2; do
      echo "--- $t, ISA path: $isa" >>"$log"
      cat "$log.$isa" >>"$log" && rm -f "$log.$isa"
    done
    ((status == 0)) || return 1
  done
}

echo "=== baseline: the unpatched copy (at -O2: the suite, and the recorded output hashes on the dispatched and AVX2 paths)"
if ! run_suite "$scratch/baseline.log" || ! recorded_bits "$scratch/baseline.log"; then
  echo "    the suite already FAILS without a plant; bites inconclusive:"
  failing_tests "$scratch/baseline.log"
  echo "bites: FAIL — fix the baseline first (log: $scratch/baseline.log)"
  exit 2
fi
echo "    passes"

# A plant on one ISA path says which processor flags that path needs
# ("Needs CPU flags: ..." in its description); where /proc/cpuinfo lacks one,
# the planted code never runs here, so the plant is reported as not run
# (never as caught) and left to a processor that has them (CI's).
missing_flags() {
  local needs have f out=()
  needs=$(sed -n 's/^Needs CPU flags: //p' "$1")
  [[ -z "$needs" ]] && return 0
  have=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
  for f in $needs; do [[ "$have" == *" $f "* ]] || out+=("$f"); done
  echo "${out[*]}"
}

not_caught=()
not_run=()
for plant in "${plants[@]}"; do
  patch_file=$root/tests/bites/$plant.patch
  echo "=== plant: $plant ($(head -n 1 "$patch_file"))"
  lacking=$(missing_flags "$patch_file")
  if [[ -n "$lacking" ]]; then
    echo "    NOT RUN: this processor lacks $lacking, which the planted path needs"
    not_run+=("$plant")
    continue
  fi
  if ! (cd "$src" && patch -p1 --quiet --forward <"$patch_file"); then
    echo "bites: FAIL — tests/bites/$plant.patch does not apply to the sources any more"
    exit 2
  fi
  log=$scratch/$plant.log
  set +e
  run_suite "$log"
  rc=$?
  set -e
  (cd "$src" && patch -p1 --quiet --reverse <"$patch_file")
  if ((rc == 0)); then
    echo "    NOT CAUGHT: the suite passed with $plant planted (log: $log)"
    not_caught+=("$plant")
  elif ((rc == 3)); then
    echo "bites: FAIL — the copy does not build with $plant planted (log: $log)"
    exit 2
  else
    echo "    caught; failing tests:"
    failing_tests "$log"
  fi
done

if ((${#not_caught[@]} > 0)); then
  echo "bites: FAIL — plants not caught: ${not_caught[*]}"
  exit 1
fi
if ((${#not_run[@]} > 0)); then
  echo "bites: every plant this processor can run made the suite fail; NOT RUN here" \
       "(their path needs CPU flags this processor lacks): ${not_run[*]}"
  exit 0
fi
echo "bites: every plant (${plants[*]}) made the suite fail"
