// ApiConfig and ApiReport: the settings and figures of `allot-bench api`, the
// bench of allotd's REST API against a real allotd (SQLite store, fsync per
// group commit), with the goals of the issue and Slurm's reference figures
// (quoted, not measured here), printed as one JSON object or as a table.
//
// Contract: plain values; run_api() fills the report, printing reads it only.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/scale_report.h"

namespace allot::bench {

struct ApiConfig {
  std::string allotd;    // path of the allotd binary
  std::string data_dir;  // empty: a fresh folder under /tmp, removed afterwards
  int32_t clients = 32;  // concurrent submitting clients, one keep-alive connection each
  int32_t submits = 20'000;
  int32_t list_runs = 50;  // GET /api/v1/workloads?limit=10000, timed
  int32_t restart_workloads = 100'000;
  int32_t apply_batch = 1'000;  // Workload documents per POST /api/v1/apply while filling
  int32_t allotd_threads = 64;  // allotd --threads
  std::string audit = "on";     // allotd --audit: on, off, or both (api_pairs.h)
  int32_t slices = 20;          // --audit both: pairs of slices of submits / slices each
  std::string metering = "on";  // allotd --metering: on, or off for the A/B of its cost
};

struct ApiReport {
  ApiConfig config;
  std::string error;  // set when the bench could not finish

  // Durable submits: POST /api/v1/namespaces/{ns}/workloads, 201 only once fsynced.
  int64_t submits_ok = 0;
  int64_t submit_errors = 0;
  double submit_wall_s = 0;
  double durable_submits_per_s = 0;
  double submit_p50_ms = 0;
  double submit_p99_ms = 0;
  double submit_max_ms = 0;
  // CPU time during the submits: allotd's per submit, its busiest thread's
  // share (the admission loop), and the bench's own clients per submit.
  double submit_allotd_cpu_ms = 0;
  double submit_loop_cpu_share = 0;
  double submit_client_cpu_ms = 0;

  // GET /api/v1/workloads?limit=10000 with the submits stored.
  int64_t list_stored = 0;
  int64_t list_items = 0;
  int64_t list_bytes = 0;
  double list_10k_p50_ms = 0;
  double list_10k_p99_ms = 0;
  double list_10k_max_ms = 0;
  double list_allotd_cpu_ms = 0;  // allotd's CPU time per list

  // Filling up to restart_workloads through POST /api/v1/apply.
  int64_t filled = 0;
  double fill_s = 0;
  double fill_per_s = 0;

  // SIGTERM with restart_workloads stored, then a new process on the same data.
  int64_t restart_stored = 0;
  double stop_s = 0;
  double restart_100k_s = 0;        // exec until /readyz answers 200 (polled every 5 ms)
  double restart_first_list_s = 0;  // exec until GET /api/v1/workloads?limit=1 answers 200
  double restart_allotd_cpu_s = 0;  // CPU time of the new process until /readyz said 200
  double rss_after_restart_mib = 0;
  int64_t listed_after_restart = 0;  // every page read back after the restart
};

std::vector<Goal> goals_of(const ApiReport& report);

void print_json(const ApiReport& report, std::FILE* out);
void print_table(const ApiReport& report, std::FILE* out);

}  // namespace allot::bench
