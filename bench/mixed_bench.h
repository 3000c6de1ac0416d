// The mixed bench (`allot-bench mixed`): `clients` concurrent clients, each on
// its own keep-alive connection, run a mix of every kind of request against a
// real allotd with real pods for `seconds` (issue 10's "200 clients x 60 s"):
// submit (30%), get (20%), list a page (15%), cancel (10%), delete (10%),
// top (5%), apply of the policy with a team's quota changed (5%), and a drain
// followed by an uncordon of a node (5%). Each client acts on the workloads
// it submitted. An answer is an error when its status is not one that the API
// documents for that request in a busy cluster (e.g. a cancel of a workload
// another request already ended is a 409, not an error; a 5xx, a 400 or no
// answer is); a request without an answer within `timeout_s` is a timeout.
//
// Contract: progress goes to `log`; allotd is started on a fresh data folder
// (SQLite, the local executor, pods `sleep 20`), stopped and removed after.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

namespace allot::bench {

struct MixedConfig {
  std::string allotd;  // path of the allotd binary
  int32_t clients = 200;
  int32_t seconds = 60;
  int32_t timeout_s = 10;
  int32_t nodes = 4;  // of 8 GPUs each, shared by 4 teams
  int32_t allotd_threads = 64;
  uint64_t seed = 1;
};

struct OpFigures {
  int64_t count = 0;
  int64_t errors = 0;
  int64_t timeouts = 0;
  double p50_ms = 0;
  double p99_ms = 0;
  double max_ms = 0;
};

struct MixedReport {
  MixedConfig config;
  std::string error;          // set when the bench could not run
  std::string first_failure;  // the first error or timeout seen, for the log
  double wall_s = 0;
  OpFigures all;
  std::map<std::string, OpFigures> by_op;
};

MixedReport run_mixed(const MixedConfig& config, std::FILE* log);
std::string mixed_report_text(const MixedReport& report);
std::string mixed_report_json(const MixedReport& report);

}  // namespace allot::bench
