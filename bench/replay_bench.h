// The replay bench (`allot-bench replay --scenario FILE`): a what-if scenario
// run through a real allotd in real time (DESIGN.md section 5: the same
// scheduler as the simulator, real pods), compared with the simulation of the
// same scenario.
//
// Contract: applies the scenario's policy documents, submits each arrival at
// its time from `submitters` concurrent clients as a workload whose pods run
// `sleep RUNTIME` (replay_workload.h; with the Scenario's podStartLatency, or
// its class's podStartLatencyByPriorityClass, and podStopLatency, which the
// simulation models too, the pods start that much later and take that long to
// exit on SIGTERM), samples GET /api/v1/top every `sample_ms` for the usage
// figures, waits until every workload finished, then simulates the scenario,
// and when it declares no start latency also at allotd's held times
// (replay_references.h), and returns them side by side (replay_report.h). Needs a running, fresh
// allotd (names must not exist yet) at `server`, resolved as the allot CLI does (cli/client/
// server_address.h: the flag, ALLOT_SERVER, the config file, the default).
// Progress goes to `log`. Errors: an unreadable or malformed scenario, one
// without a Scenario document (kInvalidArgument, kNotFound), allotd
// unreachable or refusing a request (its Status).
#pragma once

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace allot::bench {

struct ReplayConfig {
  std::string scenario;  // the policy and Scenario file
  std::string server;    // allotd's address; "" for the CLI's resolution
  int submitters = 16;   // concurrent submitting clients
  int sample_ms = 100;   // how often usage is sampled
};

// The report of replay_report.h as JSON.
Result<nlohmann::json> run_replay(const ReplayConfig& config, std::FILE* log);

}  // namespace allot::bench
