#!/usr/bin/env bash
# Starts and stops a real Slurm 22.05 on this machine for the tests, the
# benches and people (Debian's packages, installed by scripts/install-deps.sh),
# without systemd, with every file under DIR: munged (the system's one, started
# if none answers, and left running by `stop`: other instances on the host, CI's
# and a developer's, share it), a private MariaDB on 127.0.0.1, slurmdbd, slurmctld, N
# slurmd (`slurmd -N nodeK`, one per emulated node, ports of their own) with
# fake GPUs (gres `File=` links to /dev/null, so that jobs still get
# CUDA_VISIBLE_DEVICES), and slurmrestd (JWT) when asked for.
#
#   scripts/slurm.sh start DIR   # idempotent: starts only what is not running
#   scripts/slurm.sh stop DIR    # stops only what `start` recorded; DIR stays
#   scripts/slurm.sh env DIR     # prints the environment the client commands need
#   scripts/slurm.sh restart-controller DIR  # stops slurmctld and starts it again
#                                            # (tests: a controller restart under load)
#
# Knobs (environment, read when DIR's configuration is first written):
#   ALLOT_SLURM_NODES=4          emulated nodes node1..nodeN
#   ALLOT_SLURM_CPUS=16          CPUs per node
#   ALLOT_SLURM_GPUS=8           fake GPUs per node
#   ALLOT_SLURM_GPU_TYPES=       GRES types, e.g. "h100 a100": the nodes are
#                                split between them in order (typed GRES);
#                                empty: untyped gres/gpu
#   ALLOT_SLURM_MEM_MB=65536     RealMemory per node
#   ALLOT_SLURM_REST=0           1: slurmrestd (JWT) on 127.0.0.1:$ALLOT_SLURM_PORT0+3
#   ALLOT_SLURM_KILL_WAIT=5      KillWait, seconds from a cancelled job's SIGTERM to
#                                its SIGKILL (a test setting: Slurm's default is 30;
#                                see write_slurm_conf)
#   ALLOT_SLURM_PORT0=16810      slurmctld PORT0, slurmdbd +1, MariaDB +2,
#                                slurmrestd +3, slurmd PORT0+10 onwards
# Must run as root (slurmd runs jobs as their users). Settings that matter on
# a 2-core machine: MessageTimeout=60; GrpTRES on gres/gpu only once
# slurmctld has registered the TRES (start waits for it).
set -euo pipefail

usage() {
  echo "usage: $0 start|stop|env|restart-controller DIR" >&2
  exit 2
}
[[ $# -eq 2 ]] || usage
action="$1"
R="$(realpath -m "$2")"
NODES=${ALLOT_SLURM_NODES:-4}
CPUS=${ALLOT_SLURM_CPUS:-16}
GPUS=${ALLOT_SLURM_GPUS:-8}
GPU_TYPES=${ALLOT_SLURM_GPU_TYPES:-}
MEM=${ALLOT_SLURM_MEM_MB:-65536}
REST=${ALLOT_SLURM_REST:-0}
KILL_WAIT=${ALLOT_SLURM_KILL_WAIT:-5}
PORT0=${ALLOT_SLURM_PORT0:-16810}
CTLD_PORT=$PORT0
DBD_PORT=$((PORT0 + 1))
DB_PORT=$((PORT0 + 2))
REST_PORT=$((PORT0 + 3))
SLURMD_PORT0=$((PORT0 + 10))
CLUSTER=allot
PIDS=$R/run/started.pids
export SLURM_CONF=$R/etc/slurm.conf

T0=$(date +%s%N)
log() { echo "[slurm.sh $(( ($(date +%s%N) - T0) / 1000000 )) ms] $*"; }
die() {
  echo "slurm.sh: $*" >&2
  exit 1
}

alive() { # alive NAME: our recorded process NAME runs
  local pid
  pid=$(awk -v n="$1" '$1==n{p=$2} END{print p}' "$PIDS" 2>/dev/null)
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null
}
record() { echo "$1 $2" >>"$PIDS"; }
waitfor() { # waitfor SECONDS WHAT CMD...
  local end=$(($(date +%s) + $1)) what=$2
  shift 2
  until "$@" >/dev/null 2>&1; do
    [[ $(date +%s) -lt $end ]] || die "timed out waiting for $what (logs in $R/log)"
    sleep 0.1
  done
}

# The node names of each GRES type: "h100 node[1-2]" lines; one untyped line without types.
node_groups() {
  local types=($GPU_TYPES) count=${#GPU_TYPES} i first last
  if [[ -z "$GPU_TYPES" ]]; then
    echo "- 1 $NODES"
    return
  fi
  count=${#types[@]}
  [[ $NODES -ge $count ]] || die "ALLOT_SLURM_NODES=$NODES is fewer than the GRES types ($GPU_TYPES)"
  for i in "${!types[@]}"; do
    first=$((i * NODES / count + 1))
    last=$(((i + 1) * NODES / count))
    echo "${types[$i]} $first $last"
  done
}

write_slurm_conf() {
  local tres="gres/gpu" type first last gres
  while read -r type first last; do
    [[ "$type" == - ]] || tres="$tres,gres/gpu:$type"
  done < <(node_groups)
  cat <<CONF
ClusterName=$CLUSTER
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT0
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthAltTypes=auth/jwt
AuthAltParameters=jwt_key=$R/etc/jwt_hs256.key
StateSaveLocation=$R/state
SlurmdSpoolDir=$R/spool/%n
SlurmctldPidFile=$R/run/slurmctld.pid
SlurmdPidFile=$R/run/slurmd-%n.pid
SlurmctldLogFile=$R/log/slurmctld.log
SlurmdLogFile=$R/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
# no cgroups in containers: plain process tracking, no task binding
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
MailProg=/bin/true
# A node set DOWN stays down until resumed (a failed node stays failed); one
# that was only unresponsive returns when its slurmd registers again.
ReturnToService=1
SlurmdParameters=config_overrides
SchedulerType=sched/backfill
# Schedule at once on a small cluster: the main loop and backfill every second
# (defaults 60 s and 30 s: a job that could not start when submitted waited that long).
SchedulerParameters=sched_interval=1,bf_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=256
GresTypes=gpu
MinJobAge=30
MaxJobCount=200000
# 2-core hosts: the 10 s default lets batch-launch confirmations time out under load
MessageTimeout=60
JobRequeue=1
# A test setting (Slurm's default is 30 s): a process that outlives its job's
# SIGTERM is killed after this. One did in CI: a gang's batch script
# (exec srun) cancelled while srun was launching its step (one node
# refused the launch: "Job N already killed, do not launch StepId=N.0") ignored
# the SIGTERM and held the job COMPLETING for the whole KillWait.
KillWait=$KILL_WAIT
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort=$DBD_PORT
AccountingStorageTRES=$tres
AccountingStorageEnforce=associations,limits,qos,safe
PriorityType=priority/multifactor
PriorityDecayHalfLife=1-0
PriorityCalcPeriod=1
PriorityWeightFairshare=100000
PriorityWeightQOS=1000000
PriorityWeightAge=1000
PreemptType=preempt/qos
PreemptMode=REQUEUE
CONF
  while read -r type first last; do
    gres="gpu:$GPUS"
    features="emulated"
    if [[ "$type" != - ]]; then
      gres="gpu:$type:$GPUS"
      features="emulated,$type"
    fi
    echo "NodeName=node[$first-$last] NodeHostname=localhost NodeAddr=127.0.0.1" \
      "Port=[$((SLURMD_PORT0 + first - 1))-$((SLURMD_PORT0 + last - 1))] CPUs=$CPUS Boards=1" \
      "SocketsPerBoard=1 CoresPerSocket=$CPUS ThreadsPerCore=1 RealMemory=$MEM Gres=$gres" \
      "Feature=$features State=UNKNOWN"
  done < <(node_groups)
  echo "PartitionName=gpu Nodes=node[1-$NODES] Default=YES DefaultTime=01:00:00 MaxTime=INFINITE State=UP"
}

write_gres_conf() {
  local type first last
  echo "AutoDetect=off"
  while read -r type first last; do
    if [[ "$type" == - ]]; then
      echo "NodeName=node[$first-$last] Name=gpu File=$R/dev/nvidia[0-$((GPUS - 1))]"
    else
      echo "NodeName=node[$first-$last] Name=gpu Type=$type File=$R/dev/nvidia[0-$((GPUS - 1))]"
    fi
  done < <(node_groups)
}

write_config() {
  if [[ -s "$R/etc/slurm.conf" ]]; then
    # A DIR configured before KillWait was set here gets it (read at slurmctld's next start).
    grep -q '^KillWait=' "$R/etc/slurm.conf" ||
      sed -i "s/^JobRequeue=1$/JobRequeue=1\nKillWait=$KILL_WAIT/" "$R/etc/slurm.conf"
    return
  fi
  log "writing the configuration in $R/etc"
  for i in $(seq 0 $((GPUS - 1))); do ln -sfn /dev/null "$R/dev/nvidia$i"; done
  if [[ ! -f "$R/etc/jwt_hs256.key" ]]; then
    head -c 32 /dev/urandom >"$R/etc/jwt_hs256.key"
    chmod 600 "$R/etc/jwt_hs256.key"
  fi
  write_gres_conf >"$R/etc/gres.conf"
  cat >"$R/etc/slurmdbd.conf" <<CONF
AuthType=auth/munge
AuthAltTypes=auth/jwt
AuthAltParameters=jwt_key=$R/etc/jwt_hs256.key
DbdHost=localhost
DbdPort=$DBD_PORT
SlurmUser=root
DebugLevel=info
LogFile=$R/log/slurmdbd.log
PidFile=$R/run/slurmdbd.pid
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$DB_PORT
StorageUser=slurm
StoragePass=slurmpass
StorageLoc=slurm_acct_db
CONF
  chmod 600 "$R/etc/slurmdbd.conf"
  # written last: its presence says the configuration is complete
  write_slurm_conf >"$R/etc/slurm.conf.new"
  mv "$R/etc/slurm.conf.new" "$R/etc/slurm.conf"
}

start_munge() {
  (munge -n | unmunge) >/dev/null 2>&1 && return
  log "starting munged"
  mkdir -p /run/munge && chown munge:munge /run/munge && chmod 755 /run/munge
  if [[ ! -s /etc/munge/munge.key ]]; then
    mungekey -c -f 2>/dev/null || head -c 1024 /dev/urandom >/etc/munge/munge.key
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
  fi
  # Not recorded: stop leaves it to the other Slurms of this host.
  setsid setpriv --reuid=munge --regid=munge --clear-groups /usr/sbin/munged -F \
    </dev/null >"$R/log/munged.out" 2>&1 &
  waitfor 15 munged sh -c 'munge -n | unmunge'
}

start_mariadb() {
  local run=$R/mysqlrun sock=$R/mysqlrun/mysqld.sock
  mysqladmin --socket="$sock" ping >/dev/null 2>&1 && return
  if [[ ! -d "$R/mysql/mysql" ]]; then
    log "initialising MariaDB in $R/mysql"
    mkdir -p "$R/mysql" && chown mysql:mysql "$R/mysql"
    mariadb-install-db --user=mysql --datadir="$R/mysql" --auth-root-authentication-method=socket \
      --skip-test-db >"$R/log/mariadb-install.log" 2>&1 ||
      die "mariadb-install-db failed: $(tail -5 "$R/log/mariadb-install.log")"
  fi
  log "starting mariadbd"
  mkdir -p "$run" && chown mysql:mysql "$run"
  setsid /usr/sbin/mariadbd --no-defaults --user=mysql --datadir="$R/mysql" --socket="$sock" \
    --pid-file="$run/mariadbd.pid" --bind-address=127.0.0.1 --port="$DB_PORT" \
    --innodb-buffer-pool-size=128M --innodb-log-file-size=48M --skip-name-resolve \
    --log-error="$R/log/mariadb.err" </dev/null >"$R/log/mariadb.out" 2>&1 &
  record mariadbd $!
  waitfor 60 mariadbd mysqladmin --socket="$sock" ping
  mysql --socket="$sock" -e "CREATE DATABASE IF NOT EXISTS slurm_acct_db;
    CREATE USER IF NOT EXISTS 'slurm'@'127.0.0.1' IDENTIFIED BY 'slurmpass';
    GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1'; FLUSH PRIVILEGES;"
}

start_slurm_daemons() {
  local n
  if ! alive slurmdbd; then
    log "starting slurmdbd"
    setsid /usr/sbin/slurmdbd -D </dev/null >"$R/log/slurmdbd.out" 2>&1 &
    record slurmdbd $!
    waitfor 60 slurmdbd sacctmgr -n show cluster
  fi
  sacctmgr -n -P show cluster format=cluster | grep -qx "$CLUSTER" ||
    sacctmgr -i add cluster "$CLUSTER" >/dev/null
  if ! alive slurmctld; then
    log "starting slurmctld"
    setsid /usr/sbin/slurmctld -D </dev/null >"$R/log/slurmctld.out" 2>&1 &
    record slurmctld $!
    waitfor 60 slurmctld sh -c 'scontrol ping | grep -q UP'
  fi
  for n in $(seq 1 "$NODES"); do
    alive "slurmd-node$n" && continue
    mkdir -p "$R/spool/node$n"
    setsid /usr/sbin/slurmd -D -N "node$n" </dev/null >"$R/log/slurmd-node$n.out" 2>&1 &
    record "slurmd-node$n" $!
  done
  waitfor 60 "$NODES nodes" sh -c \
    "[ \$(sinfo -h -N -t idle,alloc,mix -o %N | sort -u | wc -l) -ge $NODES ]"
  # GrpTRES on gres/gpu needs the TRES registered in the database first.
  waitfor 60 "the gres/gpu TRES" sh -c 'sacctmgr -n -P show tres type=gres | grep -q gpu'
}

start_rest() {
  [[ "$REST" == 1 ]] || return 0
  alive slurmrestd && return
  id slurmrestd >/dev/null 2>&1 || useradd -r -M -s /usr/sbin/nologin slurmrestd
  log "starting slurmrestd on 127.0.0.1:$REST_PORT"
  # slurmrestd refuses root; SLURM_JWT=daemon: it acts with each request's token.
  SLURM_JWT=daemon setsid setpriv --reuid=slurmrestd --regid=slurmrestd --clear-groups \
    /usr/sbin/slurmrestd -a rest_auth/jwt "127.0.0.1:$REST_PORT" \
    </dev/null >"$R/log/slurmrestd.log" 2>&1 &
  record slurmrestd $!
  waitfor 30 slurmrestd curl -s -o /dev/null "http://127.0.0.1:$REST_PORT/openapi/v3"
}

print_env() {
  echo "SLURM_CONF=$SLURM_CONF"
  [[ "$REST" != 1 ]] || echo "SLURMRESTD_URL=http://127.0.0.1:$REST_PORT"
}

start() {
  [[ "$(id -u)" -eq 0 ]] || die "must run as root (slurmd runs jobs as their users)"
  command -v slurmctld >/dev/null || die "no slurmctld: run scripts/install-deps.sh"
  mkdir -p "$R"/{etc,state,log,run,spool,dev}
  touch "$PIDS"
  write_config
  start_munge
  start_mariadb
  start_slurm_daemons
  start_rest
  log "ready: $(sinfo -h -o '%D nodes %G %T' | tr '\n' ' ')"
  print_env >"$R/env"
  print_env
}

# Stops the recorded daemons whose names match REGEX, together: SIGTERM, then
# SIGKILL after 15 s. A pid is signalled only while its command line still
# names the daemon (pids are reused).
stop_group() {
  local victims=() name pid exe v
  while read -r name pid; do
    [[ "$name" =~ $1 ]] || continue
    kill -0 "$pid" 2>/dev/null || continue
    exe=${name%%-node*}
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "$exe" || continue
    kill -TERM "$pid" && victims+=("$pid")
  done <"$PIDS"
  for v in "${victims[@]}"; do
    for _ in $(seq 1 150); do
      kill -0 "$v" 2>/dev/null || break
      sleep 0.1
    done
    kill -0 "$v" 2>/dev/null && kill -KILL "$v"
  done
  return 0
}

stop() {
  [[ -f "$PIDS" ]] || return 0
  if alive slurmctld && timeout 5 scontrol ping 2>/dev/null | grep -q UP; then
    local jobs
    jobs=$(timeout 10 squeue -h -o %A 2>/dev/null | paste -sd' ')
    [[ -z "$jobs" ]] || timeout 20 scancel $jobs 2>/dev/null || true
  fi
  stop_group '^(slurmrestd|slurmd-node[0-9]+)$'
  stop_group '^slurmctld$'
  stop_group '^slurmdbd$'
  stop_group '^mariadbd$'
  : >"$PIDS"
}

restart_controller() {
  [[ -f "$PIDS" ]] || die "nothing started in $R"
  log "restarting slurmctld"
  stop_group '^slurmctld$'
  start_slurm_daemons
  log "slurmctld is back"
}

case "${action}" in
  restart-controller) restart_controller ;;
  start) start ;;
  stop) stop ;;
  env) print_env ;;
  *) usage ;;
esac
