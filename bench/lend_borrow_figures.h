// The lend/borrow scenario's shape and its figures (slurm_lend_borrow.h says
// what each figure means). Pure: no I/O, no clock; the runs are given.
//
// Contract: lend_borrow_figures() reads each team's demand (its submitted,
// unfinished jobs' GPUs) and holding (its running jobs' GPUs) every 0.5 s of
// the window [0, stream_seconds] (seconds from the way's start) and answers
// {"teamA": {...}, "teamB": {...}, "gpuUtilisation", "preemptions"}; each team
// {"jobs", "started", "meanWaitSeconds", "guaranteeCompliance" and
// "guaranteeHeldShare" (null when the team never asked), "askedSeconds"}. A run with end < 0 still
// ran at the window's end; a job whose last run never started was still waiting.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace allot::bench {

struct LendBorrowConfig {
  std::string slurm_dir;  // scripts/slurm.sh's DIR
  std::string allotd;     // the allotd binary
  int32_t nodes = 16;     // node1..nodeN, 8 GPUs each
  int32_t job_gpus = 4;
  double job_seconds = 5;
  double stream_seconds = 60;
  double return_at = 20;  // when B returns
  double load = 1.25;     // each stream's rate over what its share finishes
  // Which ways run, in this order: "allot", "grptres", "qos" (all by default).
  std::vector<std::string> ways = {"allot", "grptres", "qos"};
  std::string slurm_submit = "batch";  // allotd's --slurm-submit (passed when not batch)
};

int32_t lend_borrow_gpus(const LendBorrowConfig& config);  // nodes x 8

// The figures of one way, from its jobs' runs (pure; exposed for tests).
struct LendBorrowRun {
  double start = -1;  // seconds from the way's start; < 0: never started
  double end = -1;
};
struct LendBorrowJob {
  bool team_b = false;
  double submitted = 0;  // seconds from the way's start
  std::vector<LendBorrowRun> runs;
};
nlohmann::json lend_borrow_figures(const std::vector<LendBorrowJob>& jobs,
                                   const LendBorrowConfig& config);

}  // namespace allot::bench
