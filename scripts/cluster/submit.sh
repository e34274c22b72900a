#!/usr/bin/env bash
# Submits a sharded bngcert campaign to Slurm: one job-array task per shard,
# then the merge. docs/certification.md §9 ("Running on a cluster").
#
#   scripts/cluster/submit.sh N OUT BNGCERT SUBCOMMAND [OPTIONS...]
#   e.g. scripts/cluster/submit.sh 16 /shared/cert-1.4 /shared/bng/bngcert certify --cases 200 --seed 7
#
# SUBCOMMAND is certify, report or check (with --pack); OPTIONS are the
# campaign's, exactly as for one unsharded run (not --out, --shard). OUT (a new
# directory) and BNGCERT (and the libraries it loads, and any paths in OPTIONS)
# must be visible at the same paths on every node. Jobs:
#   bng-shard    array 1-N: shard K -> OUT/shards/shard-K/   (log OUT/logs/shard-K.out)
#   bng-merge    afterok on the whole array: OUT/merged/ report + certificate (log OUT/logs/merge.out)
#   bng-partial  afternotok on the whole array: runs only if a shard failed, was
#                cancelled or timed out; merges the shards that finished with
#                --partial (certificate PARTIAL, never PASS), names the others
#                and exits nonzero (log OUT/logs/partial.out)
# Slurm 22.05 releases both only once every task of the array has ended; the
# one whose condition cannot hold any more is cancelled (--kill-on-invalid-dep).
# Exactly one of them runs: its job state (COMPLETED, FAILED) is the outcome.
# Writes the job ids to OUT/jobs (shell syntax). BNG_SHARD_CPUS (default 1):
# CPUs per shard (bngcert --jobs follows). Partition, time limit, account:
# sbatch's own SBATCH_PARTITION, SBATCH_TIMELIMIT, SBATCH_ACCOUNT.
set -euo pipefail
if (($# < 4)); then
  sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
fi
n=$1 out=$2 bngcert=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd -P)
if ! [[ $n =~ ^[1-9][0-9]*$ ]]; then
  echo "submit: N must be a positive integer, not '$n'" >&2
  exit 2
fi
if [[ ! -x $bngcert ]]; then
  echo "submit: no executable bngcert at $bngcert" >&2
  exit 2
fi
if [[ -e $out && -n $(ls -A "$out" 2>/dev/null) ]]; then
  echo "submit: $out is not empty: one fresh directory per campaign" >&2
  exit 2
fi
mkdir -p "$out/shards" "$out/logs"
out=$(cd "$out" && pwd -P)
bngcert=$(cd "$(dirname "$bngcert")" && pwd -P)/$(basename "$bngcert")

cpus=${BNG_SHARD_CPUS:-1}
jobid() { cut -d';' -f1; } # --parsable prints ID or ID;CLUSTER
array=$(sbatch --parsable --array="1-$n" --cpus-per-task="$cpus" \
  --output="$out/logs/shard-%a.out" \
  "$here/shard.sbatch" "$n" "$out/shards" "$bngcert" "$@" | jobid)
# Without its merge jobs the array would run for nothing: cancel it.
trap 'echo "submit: could not submit the merge jobs: cancelling array job $array" >&2; scancel "$array"' ERR
merge=$(sbatch --parsable --job-name=bng-merge --dependency="afterok:$array" --kill-on-invalid-dep=yes \
  --output="$out/logs/merge.out" \
  "$here/merge.sbatch" "$n" "$out" "$bngcert" | jobid)
partial=$(sbatch --parsable --job-name=bng-partial --dependency="afternotok:$array" --kill-on-invalid-dep=yes \
  --output="$out/logs/partial.out" \
  "$here/merge.sbatch" "$n" "$out" "$bngcert" --partial "$array" | jobid)
trap - ERR
printf 'array=%s\nmerge=%s\npartial=%s\n' "$array" "$merge" "$partial" >"$out/jobs"
echo "submit: shards: array job $array (1-$n) -> $out/shards/"
echo "submit: merge:  job $merge after all shards succeed -> $out/merged/"
echo "submit: partial merge: job $partial if a shard fails -> $out/merged/ (PARTIAL)"
