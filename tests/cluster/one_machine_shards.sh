#!/usr/bin/env bash
# Default suite: the one-machine one-liners of docs/certification.md §9 —
# N shards through `xargs -P`, then through GNU `parallel`, each followed by
# `bngcert merge` — run exactly as written there (the test fails if the doc's
# lines change without it), on a small campaign; each merged certificate, report
# and reproducers must equal an unsharded certify's (same_as_unsharded.py) and
# the one-liner must exit as the unsharded run did (0 PASS, 1 FAIL). With a
# shard failing, the line must exit nonzero without merging.
#
#   tests/cluster/one_machine_shards.sh BNGCERT SOURCE_DIR
set -euo pipefail
if (($# != 2)); then
  echo "usage: $0 BNGCERT SOURCE_DIR" >&2
  exit 2
fi
bngcert=$(realpath "$1")
src=$(realpath "$2")
doc=$src/docs/certification.md

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
command -v parallel >/dev/null || fail "GNU parallel is missing: ./scripts/setup.sh installs it"

# The lines of docs/certification.md §9, verbatim (they use bngcert, campaign, n).
# shellcheck disable=SC2016
xargs_line='seq "$n" | xargs -P "$(nproc)" -I{} "$bngcert" "${campaign[@]}" --jobs 1 --shard {}/"$n" --out shards/shard-{} && "$bngcert" merge shards/shard-* --out merged'
# shellcheck disable=SC2016
parallel_line='parallel -j "$(nproc)" "$bngcert" "${campaign[@]}" --jobs 1 --shard {}/"$n" --out shards/shard-{} ::: $(seq "$n") && "$bngcert" merge shards/shard-* --out merged'
for line in "$xargs_line" "$parallel_line"; do
  grep -qxF "$line" "$doc" || fail "docs/certification.md no longer has this line (update the test with it): $line"
done

# A small campaign: seconds per shard.
campaign=(certify --targets mt7004 --functions hp --cases 2)

tmp=$(mktemp -d /tmp/bng-shards.XXXXXX)
trap 'cd /; rm -rf "$tmp"' EXIT
cd "$tmp"
t0=$SECONDS

rc_unsharded=0
"$bngcert" "${campaign[@]}" --out unsharded >unsharded.log 2>&1 || rc_unsharded=$?
((rc_unsharded <= 1)) || fail "unsharded certify exited $rc_unsharded: $(tail -n 5 unsharded.log)"
echo "unsharded certify: exit $rc_unsharded ($((SECONDS - t0)) s)"

# run NAME N LINE: the one-liner with n=N in a fresh directory NAME.
run() {
  local name=$1 line=$3 rc=0 t=$SECONDS
  local n=$2
  mkdir "$tmp/$name"
  cd "$tmp/$name"
  eval "$line" >run.log 2>&1 || rc=$?
  cd "$tmp"
  ((rc == rc_unsharded)) || fail "$name: exit $rc, the unsharded certify exited $rc_unsharded: $(tail -n 20 "$name/run.log")"
  [[ $(find "$name/shards" -mindepth 1 -maxdepth 1 -type d | wc -l) == "$n" ]] ||
    fail "$name: expected $n shard directories"
  python3 "$src/tests/cluster/same_as_unsharded.py" unsharded "$name/merged" ||
    fail "$name: the merge differs from the unsharded run"
  echo "$name: $n shards, exit $rc ($((SECONDS - t)) s)"
}
run xargs 3 "$xargs_line"
run parallel 4 "$parallel_line"

# A failed shard (its output path taken by a file): the line exits nonzero
# and no merge runs.
mkdir -p "$tmp/failed/shards"
: >"$tmp/failed/shards/shard-2"
cd "$tmp/failed"
n=3
rc=0
eval "$xargs_line" >run.log 2>&1 || rc=$?
cd "$tmp"
((rc != 0)) || fail "a failed shard: the xargs line exited 0"
[[ ! -e failed/merged ]] || fail "a failed shard: the merge ran anyway"
echo "failed shard 2: xargs line exit $rc, no merge"
echo "PASS ($((SECONDS - t0)) s)"
