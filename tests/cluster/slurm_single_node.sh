#!/usr/bin/env bash
# ctest label `cluster`: a sharded certify through Slurm, as docs/certification.md
# §9 tells a release manager to run it, on a private single-node Slurm
# (tests/cluster/slurm_local.sh) that this script starts and stops.
#
#   tests/cluster/slurm_single_node.sh BNGCERT SOURCE_DIR
#
# 1. scripts/cluster/submit.sh: 4 shards (job array) + merge (afterok) +
#    partial merge (afternotok). The merge job must run, the partial one be
#    cancelled, and the merged certificate, report and reproducers equal a
#    local unsharded certify's (tests/cluster/same_as_unsharded.py).
# 2. The same with shard 2 cancelled (scancel) and shard 3 failing (its output
#    path taken by a file): the merge job must be cancelled, the partial merge
#    must run, name shards 2 and 3 and exit nonzero, and no PASS certificate
#    may appear.
# Needs root (slurmd), else exits 77 (ctest: skipped). Everything lives in one
# temporary directory; a trap stops the daemons and removes it on every exit
# (BNG_KEEP_TMP=1 keeps the directory). BNG_CLUSTER_TIMEOUT: seconds to wait
# for each run (default 900).
set -euo pipefail
if (($# != 2)); then
  echo "usage: $0 BNGCERT SOURCE_DIR" >&2
  exit 2
fi
bngcert=$(realpath "$1")
src=$(realpath "$2")
timeout=${BNG_CLUSTER_TIMEOUT:-900}

if ((EUID != 0)); then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    exec sudo -n --preserve-env=BNG_KEEP_TMP,BNG_CLUSTER_TIMEOUT bash "$0" "$bngcert" "$src"
  fi
  echo "SKIP: the Slurm test needs root (slurmd) or passwordless sudo"
  exit 77
fi

# Only the private cluster: no SBATCH_PARTITION or SLURM_JOB_ID of the caller's.
for v in $(compgen -e); do
  [[ $v =~ ^(SBATCH|SLURM|SALLOC|SRUN)_ ]] && unset "$v"
done

# The campaign: small (seconds per shard) but every kernel of one target.
campaign=(certify --targets mt7004 --functions hp --cases 2)

tmp=$(mktemp -d /tmp/bng-cluster.XXXXXX)
helper=$src/tests/cluster/slurm_local.sh
cleanup() {
  local rc=$?
  cd /
  "$helper" stop "$tmp/slurm" || true
  if [[ ${BNG_KEEP_TMP:-0} == 1 ]]; then
    echo "kept $tmp"
  else
    rm -rf "$tmp"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() {
  echo "FAIL: $*" >&2
  for f in "$tmp"/run*/logs/*.out "$tmp"/slurm/log/slurmctld.log; do
    [[ -f $f ]] && { echo "--- $f (last 20 lines)"; tail -n 20 "$f"; }
  done >&2
  exit 1
}
elapsed() { echo "$((SECONDS - t0)) s"; }
t0=$SECONDS

"$helper" start "$tmp/slurm"
# shellcheck disable=SC1091
. "$tmp/slurm/env"
echo "slurm up: $(elapsed)"
cd "$tmp"

# State and exit code of a job, e.g. "COMPLETED 0:0"; "gone" when Slurm has
# no record of it (22.05 keeps none of an array task cancelled while pending).
job_state() {
  local info
  info=$(scontrol -o show job "$1" 2>/dev/null) || {
    echo gone
    return
  }
  grep -o 'JobState=[^ ]*\|ExitCode=[^ ]*' <<<"$info" | cut -d= -f2 | paste -s -d' '
}

# Until the jobs of run $1 have all left the queue (bounded).
wait_run() {
  local out=$1 array merge partial
  # shellcheck disable=SC1091
  . "$out/jobs"
  local deadline=$((SECONDS + timeout))
  while [[ -n $(squeue -h -j "$array,$merge,$partial" 2>/dev/null) ]]; do
    ((SECONDS < deadline)) || fail "$out: jobs still queued after $timeout s: $(squeue -h -j "$array,$merge,$partial")"
    sleep 1
  done
}

# The verdict of a certificate.json.
verdict() {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$1"
}

# --- 1. all shards succeed ---------------------------------------------------
# The commands of docs/certification.md §9.
"$src/scripts/cluster/submit.sh" 4 "$tmp/run1" "$bngcert" "${campaign[@]}"
echo "submitted run1: $(elapsed)"
# Meanwhile, the unsharded run to compare with.
rc_local=0
"$bngcert" "${campaign[@]}" --out "$tmp/local" >"$tmp/local.log" 2>&1 || rc_local=$?
((rc_local <= 1)) || fail "unsharded certify exited $rc_local: $(tail -n 5 "$tmp/local.log")"
echo "unsharded certify (exit $rc_local): $(elapsed)"
wait_run "$tmp/run1"
echo "run1 done: $(elapsed)"
# shellcheck disable=SC1091
. "$tmp/run1/jobs"
for k in 1 2 3 4; do
  state=$(job_state "${array}_$k")
  [[ $state == "COMPLETED 0:0" ]] || fail "run1: shard $k: $state"
done
merge_state=$(job_state "$merge")
partial_state=$(job_state "$partial")
# merge exits as bngcert merge does: 0 PASS, 1 FAIL, like the unsharded certify.
if ((rc_local == 0)); then want=COMPLETED; else want=FAILED; fi
[[ $merge_state == "$want $rc_local:0" ]] ||
  fail "run1: merge job $merge_state, expected $want $rc_local:0 (the unsharded certify exited $rc_local)"
[[ $partial_state == CANCELLED* ]] || fail "run1: partial-merge job $partial_state, expected CANCELLED"
[[ -f $tmp/run1/merged/certificate.json ]] || fail "run1: no merged certificate"
python3 "$src/tests/cluster/same_as_unsharded.py" "$tmp/local" "$tmp/run1/merged" ||
  fail "run1: the merge differs from the unsharded run"
echo "run1: merge $merge_state, partial merge $partial_state, merged = unsharded ($(verdict "$tmp/run1/merged/certificate.json"))"

# --- 2. shard 2 cancelled, shard 3 fails -------------------------------------
# The partition is down while the jobs are submitted, so that nothing runs
# before shard 2 is cancelled and shard 3's output path is taken.
scontrol update PartitionName=debug State=DOWN
"$src/scripts/cluster/submit.sh" 4 "$tmp/run2" "$bngcert" "${campaign[@]}"
# shellcheck disable=SC1091
. "$tmp/run2/jobs"
scancel "${array}_2"
: >"$tmp/run2/shards/shard-3" # a file where shard 3 must create its directory
scontrol update PartitionName=debug State=UP
wait_run "$tmp/run2"
echo "run2 done: $(elapsed)"
for k in 1 2 3 4; do
  echo "  shard $k: $(job_state "${array}_$k")"
done
[[ $(job_state "${array}_3") == "FAILED 2:0" ]] || fail "run2: shard 3: $(job_state "${array}_3"), expected FAILED 2:0"
merge_state=$(job_state "$merge")
partial_state=$(job_state "$partial")
[[ $merge_state == CANCELLED* ]] || fail "run2: merge job $merge_state, expected CANCELLED (dependency never satisfied)"
[[ $partial_state == FAILED* ]] || fail "run2: partial-merge job $partial_state, expected FAILED"
grep -q 'MISSING: 2/4 3/4' "$tmp/run2/logs/partial.out" ||
  fail "run2: the partial merge does not name shards 2 and 3"
# No PASS certificate out of run2 (the shard directories hold only tallies).
while IFS= read -r -d '' cert; do
  v=$(verdict "$cert")
  [[ ${v,,} != pass ]] || fail "run2: $cert says $v"
  echo "run2: $cert: verdict $v"
done < <(find "$tmp/run2" -path "$tmp/run2/shards" -prune -o -name certificate.json -print0)
[[ -f $tmp/run2/merged/certificate.json ]] || fail "run2: the partial merge wrote no certificate"
missing=$(python3 -c 'import json,sys; print(*json.load(open(sys.argv[1]))["runs"][0]["sharding"]["missing"])' \
  "$tmp/run2/merged/certificate.json")
[[ $missing == "2 3" ]] || fail "run2: the partial certificate records missing shards '$missing', expected '2 3'"
echo "run2: merge $merge_state, partial merge $partial_state, shards 2 and 3 named"

echo "PASS ($(elapsed))"
