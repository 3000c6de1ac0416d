#!/usr/bin/env python3
"""Runs a command and prints the CPU time of its whole process tree.

    scripts/cpu-tree.py CMD ARGS...   # CMD's output as is; then on stderr:
    cpu-tree: user 12.34 s sys 5.67 s (every process under CMD, orphans included)

The wrapper makes itself a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so
that processes that leave their parent (allotd's `--slurm-submit allocation`
runs salloc in a session of its own; it outlives the shell that started it)
are reaped here and their CPU counted, as the commands allotd and the bench
wait for themselves (sbatch, squeue) are through their parents. Used by the
Slurm A/B in docs/benchmarks.md: the bench's control-plane CPU counts
slurmctld, slurmdbd and allotd's own process only, not the Slurm commands
either mode runs.
"""
import ctypes
import os
import resource
import subprocess
import sys

PR_SET_CHILD_SUBREAPER = 36


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("cpu-tree: prctl failed", file=sys.stderr)
        return 1
    child = subprocess.Popen(sys.argv[1:])
    status = 0
    while True:
        try:
            pid, wait_status = os.wait()
        except ChildProcessError:
            break
        if pid == child.pid:
            status = os.waitstatus_to_exitcode(wait_status)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"cpu-tree: user {usage.ru_utime:.2f} s sys {usage.ru_stime:.2f} s "
          "(every process under CMD, orphans included)", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
