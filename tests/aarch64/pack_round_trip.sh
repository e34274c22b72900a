#!/usr/bin/env bash
# The round trip across architectures (issue 25), the nearest thing to a board
# these machines have: a pack exported by the x86 bngcert, run by the aarch64
# harnesses under qemu (SVE2 at 256 bits), judged by the x86 bngcert with
# `check --pack`: PASS, and the certificate names the aarch64 libraries
# (SHA-256 and build record, architecture aarch64). Then one aarch64 output
# is corrupted (one bit of one dx.npy): FAIL, naming that case.
# Usage: pack_round_trip.sh <x86 bngcert> <aarch64 build directory>
set -euo pipefail
bngcert=$1
build=$(cd "$2" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/bng-pack-round-trip.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail() { echo "pack round trip: FAIL: $*" >&2; exit 1; }

targets=()
for h in "$build"/tools/harness/bng_harness_*; do targets+=("${h##*/bng_harness_}"); done
((${#targets[@]} > 0)) || fail "no harness in $build/tools/harness (build the aarch64 preset first)"

"$bngcert" export --out "$scratch/pack" --cases 2 --max-size 30 --seed 25 --progress none
device_libs=()
for t in "${targets[@]}"; do
  QEMU_CPU=max,sve256=on qemu-aarch64 "$build/tools/harness/bng_harness_$t" "$scratch/pack" \
    || fail "the aarch64 harness of $t failed"
  lib=$(readlink -f "$build/optimized/libbatchnormgrad_$t.so")
  device_libs+=("--device-lib-$t" "$lib")
done

"$bngcert" check --pack "$scratch/pack" --out "$scratch/cert" --progress none "${device_libs[@]}" \
  || fail "check --pack of the aarch64 outputs did not pass"
python3 - "$scratch/cert/certificate.json" "${targets[@]}" <<'PY' || fail "certificate"
import hashlib, json, sys
cert = json.load(open(sys.argv[1]))
assert cert["verdict"] == "pass", cert["verdict"]
for t in sys.argv[2:]:
    lib = cert["build"]["libraries"][t]
    assert lib["build"]["architecture"] == "aarch64", (t, lib["build"])
    want = hashlib.sha256(open(lib["path"], "rb").read()).hexdigest()
    assert lib["sha256"] == want, (t, lib["sha256"], want)
    print(f"pack round trip: {t}: aarch64 library {lib['sha256'][:16]}... recorded")
PY

# One bit of one output: the check must fail and name the case.
victim=$(find "$scratch/pack" -name dx.npy -size +200c | sort | sed -n 1p)  # sed, not head: no SIGPIPE under pipefail
[[ -n "$victim" ]] || fail "no dx.npy in the pack"
case_dir=$(dirname "$victim")
case_name=$(basename "$case_dir")
size=$(stat -c %s "$victim")
python3 - "$victim" "$size" <<'PY'
import sys
path, size = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, "rb").read())
data[size - 1] ^= 0x40  # the last element's high byte: an exponent bit
open(path, "wb").write(bytes(data))
PY
if "$bngcert" check --pack "$scratch/pack" --out "$scratch/cert-bad" --progress none \
  2>"$scratch/bad.log"; then
  fail "a corrupted aarch64 output passed"
fi
grep -q "failed case $case_name" "$scratch/bad.log" \
  || { cat "$scratch/bad.log" >&2; fail "the failure does not name $case_name"; }
echo "pack round trip: PASS (x86 export -> aarch64 harness under qemu -> x86 check), and the corrupted output of $case_name fails"
