// `allot-bench slurm`: the same N jobs (1 GPU, `sleep 1`) through Slurm alone
// (sbatch in a loop, as a user would) and through allotd on Slurm
// (`allotd --backend slurm`, workloads POSTed to its REST API), one after the
// other in ONE run, against a running Slurm (scripts/slurm.sh start DIR with
// ALLOT_SLURM_NODES=16): submit rate, time until all are done, and the CPU
// time of the control plane (slurmctld + slurmdbd + slurmrestd when it runs,
// and allotd for allot). With --rest, a third side: allotd's jobs through
// slurmrestd (allotOnSlurmRest). A bench, not a test: nothing is asserted
// about the figures.
//
// Contract: run_slurm_bench() answers the report or why it could not run
// (Slurm unreachable, allotd not starting, a submission refused). It makes
// its own accounts (bench-alone, bench-allot) and leaves no job behind.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "bench/lend_borrow_figures.h"

namespace allot::bench {

struct SlurmBenchConfig {
  std::string slurm_dir;  // scripts/slurm.sh's DIR: etc/slurm.conf, run/started.pids
  std::string allotd;     // the allotd binary
  int64_t jobs = 2000;
  int32_t nodes = 16;       // node1..nodeN, 8 GPUs each
  double job_seconds = 1;   // what each job sleeps
  double timeout_s = 1800;  // per side
  // Also allotd with its jobs through slurmrestd (DIR/env's SLURMRESTD_URL,
  // ALLOT_SLURM_REST=1), a third side: allotOnSlurmRest.
  bool rest = false;
  std::string rest_poll = "squeue";  // allotd's --slurm-rest-poll on the third side
  // Also allotd with its jobs through Slurm's commands (--slurm-transport
  // commands; allotOnSlurm is libslurm's, the default): allotOnSlurmCommands.
  bool commands = false;
  std::string slurm_submit = "batch";  // allotd's --slurm-submit (passed when not batch)
  // "throughput" (the above) or "lend-borrow" (slurm_lend_borrow.h: its own
  // settings below; slurm_dir, allotd, nodes and job_seconds from above).
  std::string scenario = "throughput";
  LendBorrowConfig lend_borrow;
};

Result<nlohmann::json> run_slurm_bench(const SlurmBenchConfig& config);

}  // namespace allot::bench
