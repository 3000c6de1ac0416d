// The API bench (`allot-bench api`): a real allotd, started by the bench on a
// fresh data directory, measured through its REST API (docs/api.md):
// - durable submits: `clients` keep-alive clients POST `submits` 1-GPU
//   workloads (`command: [sleep, 3600]`) into one team of one 1-GPU node, so one runs
//   and the rest stay Pending; each 201 means fsynced. Rate, p50/p99.
// - list: GET /api/v1/workloads?limit=10000, `list_runs` times, body read in
//   full; p50/p99.
// - restart: filled up to `restart_workloads` through POST /api/v1/apply
//   (`apply_batch` Workload documents per request), stopped with SIGTERM and
//   started again on the same data: the time from exec until /readyz answers
//   200 (polled every 5 ms) and until the first list answers.
//
// Contract: progress goes to `log`; a failure ends the bench early with
// report.error set (allotd is stopped, the data folder removed when the bench
// made it).
#pragma once

#include <cstdio>

#include "bench/api_report.h"

namespace allot::bench {

ApiReport run_api(const ApiConfig& config, std::FILE* log);

}  // namespace allot::bench
