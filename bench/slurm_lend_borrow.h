// `allot-bench slurm --scenario lend-borrow`: issue 13's lend/borrow figure,
// a scenario Slurm alone cannot express, run three ways one after the other in
// ONE run against a running Slurm (scripts/slurm.sh start DIR with
// ALLOT_SLURM_NODES=16):
//
// - allotOnSlurm: allotd on Slurm, teams A and B in one cohort, each
//   guaranteed (nominal) half the GPUs, borrowing allowed, a reclaim preempts
//   borrowed work (allot cancels the job, the workload is requeued);
// - slurmGrpTres: Slurm alone, accounts A and B each capped at half the GPUs
//   (GrpTRES gres/gpu): the guarantee kept, no borrowing;
// - slurmQosPreemption: Slurm alone, no caps; A submits under a preemptible
//   QoS, B under one that preempts it (PreemptMode=REQUEUE): borrowing, but
//   nothing guarantees A's half.
//
// The same schedule each way: A submits a steady stream from 0 to
// `stream_seconds` at `load` times what the whole cluster finishes; B is idle
// until `return_at`, then submits at `load` times what its half finishes. At
// `stream_seconds` whatever is left is cancelled; the figures are read from
// sacct (`-D`: every run of a requeued job; one-second times) over the window
// [0, stream_seconds]:
//
// - guaranteeCompliance (per team): the share of instants (every 0.5 s; for B
//   from its return) at which the team asked for GPUs and held at least
//   min(its guarantee, what it asked for). "Asked for" = the GPUs of its
//   submitted jobs not finished yet (running or waiting, in Slurm or in
//   allot's queue); "held" = the GPUs of its jobs Slurm ran then. Strict:
//   one job between its end and the next one's start makes an instant fail;
// - guaranteeHeldShare (per team): the mean over the same instants of
//   min(1, held / min(guarantee, asked)): how much of what it was due it held;
// - meanWaitSeconds (per team): submission (the bench's clock, whole
//   seconds, as Slurm records it) to the first start; a job still waiting at
//   the end counts its wait until the end (censored);
// - gpuUtilisation: GPU-seconds run within the window / (all GPUs x window);
// - preemptions: runs that were stopped and followed by another run of the
//   same job (Slurm's requeue, allot's reclaim).
//
// Contract: run_lend_borrow_bench() answers the report or why it could not
// run. It makes its own accounts and QoS (lb-*) and leaves no job behind.
// A bench: nothing is asserted about the figures.
#pragma once

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "bench/lend_borrow_figures.h"

namespace allot::bench {

Result<nlohmann::json> run_lend_borrow_bench(const LendBorrowConfig& config);

}  // namespace allot::bench
