#!/usr/bin/env bash
# A private single-node Slurm on localhost, for the `cluster` tests and for
# trying scripts/cluster/ by hand. Debian packages slurm-wlm and munge
# (BNG_SETUP_CLUSTER=1 ./scripts/setup.sh); needs root.
#
#   tests/cluster/slurm_local.sh start DIR   # DIR: a new or empty directory
#   . DIR/env                                # SLURM_CONF for sbatch, squeue, scontrol...
#   tests/cluster/slurm_local.sh stop DIR    # cancels its jobs, stops its daemons
#
# Everything lives in DIR: a fresh munge key and munged on its own socket,
# slurm.conf (one node `localhost` with every CPU, partition `debug`, free
# ports), state, spool, logs and pid files. Nothing outside DIR is read or
# written, so it runs next to (and never touches) a system Slurm or munge.
# `stop` ends only processes it can tie to DIR: the daemons by their pid
# files, then any process whose working directory or open files are in DIR.
set -euo pipefail

usage() {
  echo "usage: $0 start|stop DIR" >&2
  exit 2
}
(($# == 2)) || usage
cmd=$1
dir=$2

log() { echo "slurm_local: $*" >&2; }

# A TCP port nobody listens on (the kernel's ephemeral range is avoided).
free_port() {
  local p
  for _ in $(seq 50); do
    p=$((20000 + RANDOM % 12000))
    if ! ss -Htan "sport = :$p" 2>/dev/null | grep -q .; then
      echo "$p"
      return
    fi
  done
  log "no free port found"
  return 1
}

# The pid in a pid file, if that process is alive.
live_pid() {
  local f=$1 pid
  [[ -s $f ]] || return 1
  pid=$(<"$f")
  [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

# Processes with their working directory or an open file under DIR.
pids_using_dir() {
  local self=" " q=$$
  while [[ $q =~ ^[0-9]+$ ]] && ((q > 1)); do # this script and its callers
    self+="$q "
    q=$(awk '{print $4}' "/proc/$q/stat" 2>/dev/null || true)
  done
  # find fails on processes that end while it looks: its output still holds.
  { find /proc/[0-9]*/cwd /proc/[0-9]*/fd -maxdepth 1 -lname "$dir/*" 2>/dev/null || true; } |
    cut -d/ -f3 | sort -un | while read -r p; do
    [[ $self == *" $p "* ]] || echo "$p"
  done
}

stop_pid_file() {
  local name=$1 f=$2 pid
  pid=$(live_pid "$f") || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.2
  done
  log "$name ($pid) ignored SIGTERM for 10 s: SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
}

start() {
  if ((EUID != 0)); then
    log "needs root (slurmd starts jobs as their user)"
    exit 1
  fi
  local missing=()
  for exe in munged mungekey slurmctld slurmd sbatch squeue scontrol; do
    command -v "$exe" >/dev/null || missing+=("$exe")
  done
  if ((${#missing[@]})); then
    log "missing ${missing[*]}: BNG_SETUP_CLUSTER=1 ./scripts/setup.sh installs slurm-wlm and munge"
    exit 1
  fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd -P)
  mkdir -p "$dir"/{munge,state,spool,log,run,jobs}
  chmod 700 "$dir" "$dir/munge"

  # munge: a fresh key, our own socket, pid, log and seed files.
  mungekey --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 ||
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 600 "$dir/munge/munge.key"
  munged --force --socket="$dir/munge/munge.sock" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed"
  for _ in $(seq 50); do
    [[ -S $dir/munge/munge.sock ]] && break
    sleep 0.1
  done
  [[ -S $dir/munge/munge.sock ]] || {
    log "munged did not start: $dir/log/munged.log"
    exit 1
  }

  local ctld_port slurmd_port
  ctld_port=$(free_port)
  slurmd_port=$(free_port)
  while [[ $slurmd_port == "$ctld_port" ]]; do slurmd_port=$(free_port); done
  cat >"$dir/slurm.conf" <<EOF
# Written by tests/cluster/slurm_local.sh: a private single-node Slurm.
ClusterName=bnglocal
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  echo "export SLURM_CONF=$dir/slurm.conf" >"$dir/env"
  export SLURM_CONF=$dir/slurm.conf

  slurmctld -f "$SLURM_CONF" || {
    log "slurmctld did not start: $dir/log/slurmctld.log"
    exit 1
  }
  slurmd -f "$SLURM_CONF" -N localhost || {
    log "slurmd did not start: $dir/log/slurmd.log"
    exit 1
  }
  # Until the node is idle (bounded: 60 s).
  local state=
  for _ in $(seq 120); do
    state=$(sinfo -h -n localhost -o %T 2>/dev/null || true)
    [[ $state == idle ]] && break
    sleep 0.5
  done
  if [[ $state != idle ]]; then
    log "node not idle after 60 s (state '${state}'); logs in $dir/log"
    exit 1
  fi
  log "up in $dir (slurmctld :$ctld_port, slurmd :$slurmd_port, $(nproc) CPUs); . $dir/env"
}

stop() {
  [[ -d $dir ]] || return 0
  dir=$(cd "$dir" && pwd -P)
  if [[ -f $dir/slurm.conf ]] && live_pid "$dir/run/slurmctld.pid" >/dev/null; then
    export SLURM_CONF=$dir/slurm.conf
    scancel --full --quiet --user=root 2>/dev/null || true
    # Until the running jobs are gone (bounded: 30 s).
    for _ in $(seq 60); do
      [[ -z $(squeue -h -t running,completing 2>/dev/null) ]] && break
      sleep 0.5
    done
  fi
  stop_pid_file slurmd "$dir/run/slurmd.pid"
  stop_pid_file slurmctld "$dir/run/slurmctld.pid"
  stop_pid_file munged "$dir/run/munged.pid"
  # Job steps (slurmstepd, job scripts) left over: only those tied to DIR.
  local left
  left=$(pids_using_dir | tr '\n' ' ')
  if [[ -n $left ]]; then
    log "ending leftover processes in $dir: $left"
    # shellcheck disable=SC2086
    kill -KILL $left 2>/dev/null || true
  fi
}

case $cmd in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
