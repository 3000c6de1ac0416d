#!/usr/bin/env python3
"""Where a Slurm job's turnover goes, from slurmctld's log (docs/slurm.md, *Turnover*).

    SLURM_CONF=DIR/etc/slurm.conf scripts/slurm-turnover.py DIR/log/slurmctld.log FROM UNTIL PREFIX

FROM and UNTIL are UTC times (HH:MM:SS) around one way of `allot-bench slurm
--scenario lend-borrow`; PREFIX is its accounts' prefix (lb-allot, lb-grp).
For each job of PREFIX-a or PREFIX-b that ended from 25 s to 58 s after the
way's first submission: the next job started on the same node (gaps over 3 s
left out: no demand), and when that job was submitted after the end (allot's
way), the end to its sbatch and the sbatch to its start (with allotd's
`--slurm-submit allocation`, salloc's request stands for sbatch: a job
allocated inside it starts at its submission). Times are
slurmctld's (SlurmctldDebug=info, milliseconds); accounts and nodes from the
log and sacct.
"""
import datetime
import re
import statistics
import subprocess
import sys


def stamp(text):
    return datetime.datetime.fromisoformat(text).timestamp()


def summary(values):
    if not values:
        return "-"
    ordered = sorted(values)
    return (f"mean {statistics.mean(values):.3f} p50 {statistics.median(values):.3f} "
            f"p90 {ordered[int(len(ordered) * 0.9)]:.3f} n {len(values)}")


def main(log, since, until, prefix):
    submitted, started, ended, node = {}, {}, {}, {}
    for line in open(log, encoding="utf-8", errors="replace"):
        m = re.match(r"\[(\S+)\] (.*)", line)
        if not m or not since <= m.group(1)[11:19] <= until:
            continue
        at, msg = stamp(m.group(1)), m.group(2)
        if x := re.match(r"_slurm_rpc_submit_batch_job: JobId=(\d+)", msg):
            submitted[x[1]] = at
        elif x := re.match(r"sched: _slurm_rpc_allocate_resources JobId=(\d+) NodeList=(\S+)", msg):
            submitted[x[1]] = at  # allotd --slurm-submit allocation: salloc's request
            if x[2] != "(null)":  # allocated inside the request
                started[x[1]], node[x[1]] = at, x[2]
        elif (x := re.match(r"sched: Allocate JobId=(\d+) NodeList=(\S+)", msg)) or (
                x := re.match(r"sched/backfill: _start_job: Started JobId=(\d+) in \S+ on (\S+)", msg)):
            started[x[1]], node[x[1]] = at, x[2]
        elif x := re.match(r"_job_complete: JobId=(\d+) done", msg):
            ended.setdefault(x[1], at)
    listed = subprocess.run(["sacct", "-n", "-P", "-X", "-a", "-A", f"{prefix}-a,{prefix}-b", "-S", "today",
                             "-o", "JobIDRaw,Account,JobName"], capture_output=True, text=True, check=True).stdout
    ours = {f[0] for f in (l.split("|") for l in listed.splitlines()) if len(f) > 2 and "warm" not in f[2]}
    jobs = [j for j in started if j in ours]
    t0 = min(submitted[j] for j in jobs if j in submitted)
    gaps, to_sbatch, to_start, queued = [], [], [], []
    for j in jobs:
        if j not in ended or not t0 + 25 <= ended[j] <= t0 + 58:
            continue
        after = sorted((started[k], k) for k in jobs if node[k] == node[j] and started[k] >= ended[j])
        if not after or after[0][0] - ended[j] > 3:
            continue
        start, k = after[0]
        gaps.append(start - ended[j])
        if k in submitted and submitted[k] >= ended[j]:
            to_sbatch.append(submitted[k] - ended[j])
            to_start.append(start - submitted[k])
        else:
            queued.append(start - ended[j])
    print(f"{prefix}: end to the next start on the node {summary(gaps)}")
    print(f"  next submitted after the end: end to sbatch {summary(to_sbatch)}; sbatch to start {summary(to_start)}")
    print(f"  next already waiting in Slurm: end to start {summary(queued)}")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
