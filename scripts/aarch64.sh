#!/usr/bin/env bash
# The aarch64 hosts of the targets (issue 25, docs/targets.md "aarch64"):
# installs the cross compiler, qemu-user and the arm64 -dev packages, cross-
# builds everything with the aarch64 preset (build/aarch64), runs its tests
# under qemu, then the pack round trip across architectures with the x86
# bngcert (build/release, built here if missing).
# Usage: scripts/aarch64.sh          the CI subset (label aarch64: every path,
#                                    every vector length once; ~10 min on 2 cores)
#        scripts/aarch64.sh --full   also sve/sve2 at every vector length and
#                                    the binary32-only target on every path
set -euo pipefail
cd "$(dirname "$0")/.."
preset=aarch64
if [[ "${1:-}" == --full ]]; then preset=aarch64-full; fi
BNG_SETUP_AARCH64=1 ./scripts/setup.sh
start=$SECONDS
./scripts/build.sh aarch64
echo "aarch64: cross build $((SECONDS - start)) s"
ctest --preset "$preset" -j "$(nproc)"
./scripts/build.sh release bngcert >/dev/null
bash tests/aarch64/pack_round_trip.sh build/release/tools/bngcert/bngcert build/aarch64
echo "aarch64: done in $((SECONDS - start)) s"
