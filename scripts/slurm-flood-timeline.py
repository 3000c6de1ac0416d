#!/usr/bin/env python3
"""Where the time of a flood of short jobs goes, from slurmctld's log (docs/slurm.md, *Ends told by the job*).

    scripts/slurm-flood-timeline.py DIR/log/slurmctld.log FROM UNTIL [GPUS]

FROM and UNTIL are UTC times (HH:MM:SS) around one side of `allot-bench slurm`
(Slurm alone, or allotd on Slurm); GPUS is the cluster's (128: 16 nodes x 8).
Every job submitted in the window, from slurmctld's own times (SlurmctldDebug=info,
milliseconds): submission (sbatch's RPC, or salloc's request), start (the main
scheduler, backfill, or inside salloc's request), end (`_job_complete ... done`).
Prints the makespan (first submission to last end), the GPUs' occupancy (the
jobs' running time over GPUS x makespan: 1 GPU a job), each job's pending time
(submission to start) and running time (start to Slurm's end), and, for each
end, the next start on the same node: when that job was already waiting in
Slurm at the end (end to start), or submitted after it (end to submission,
submission to start).
"""
import datetime
import re
import statistics
import sys


def stamp(text):
    return datetime.datetime.fromisoformat(text).timestamp()


def summary(values):
    if not values:
        return "-"
    ordered = sorted(values)
    return (f"mean {statistics.mean(values):.3f} p50 {statistics.median(values):.3f} "
            f"p90 {ordered[int(len(ordered) * 0.9)]:.3f} n {len(values)}")


def main(log, since, until, gpus="128"):
    submitted, started, ended, node = {}, {}, {}, {}
    for line in open(log, encoding="utf-8", errors="replace"):
        m = re.match(r"\[(\S+)\] (.*)", line)
        if not m or not since <= m.group(1)[11:19] <= until:
            continue
        at, msg = stamp(m.group(1)), m.group(2)
        if x := re.match(r"_slurm_rpc_submit_batch_job: JobId=(\d+)", msg):
            submitted[x[1]] = at
        elif x := re.match(r"sched: _slurm_rpc_allocate_resources JobId=(\d+) NodeList=(\S+)", msg):
            submitted[x[1]] = at
            if x[2] != "(null)":
                started[x[1]], node[x[1]] = at, x[2]
        elif (x := re.match(r"sched: Allocate JobId=(\d+) NodeList=(\S+)", msg)) or (
                x := re.match(r"sched/backfill: _start_job: Started JobId=(\d+) in \S+ on (\S+)", msg)):
            started[x[1]], node[x[1]] = at, x[2]
        elif x := re.match(r"_job_complete: JobId=(\d+) done", msg):
            ended.setdefault(x[1], at)
    jobs = [j for j in submitted if j in started and j in ended]
    if not jobs:
        sys.exit("no job submitted, started and ended in the window")
    t0, t1 = min(submitted[j] for j in jobs), max(ended[j] for j in jobs)
    running = [ended[j] - started[j] for j in jobs]
    print(f"jobs {len(jobs)}; makespan {t1 - t0:.1f} s; occupancy {sum(running) / (int(gpus) * (t1 - t0)):.3f}")
    print(f"  pending (submission to start) {summary([started[j] - submitted[j] for j in jobs])}")
    print(f"  running (start to Slurm's end) {summary(running)}")
    by_node = {}
    for j in jobs:
        by_node.setdefault(node[j], []).append((started[j], j))
    gaps, queued, to_submit, to_start = [], [], [], []
    for j in jobs:
        after = [(s, k) for s, k in by_node[node[j]] if s >= ended[j]]
        if not after:
            continue
        start, k = min(after)
        gaps.append(start - ended[j])
        if submitted[k] < ended[j]:
            queued.append(start - ended[j])
        else:
            to_submit.append(submitted[k] - ended[j])
            to_start.append(start - submitted[k])
    print(f"  an end to the next start on its node {summary(gaps)}")
    print(f"    next already waiting in Slurm: end to start {summary(queued)}")
    print(f"    next submitted after the end: end to submission {summary(to_submit)}; "
          f"submission to start {summary(to_start)}")


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    main(*sys.argv[1:])
