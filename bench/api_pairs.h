// `allot-bench api --audit both`: the audit log's cost on durable submits
// measured in one run. Two allotds of the same binary are started side by
// side on fresh data folders, one with `--audit on` and one with `--audit
// off`, each given the bench's policy (api_setup.h). After one warm-up pair
// (not counted), `slices` pairs follow: the same number of submits
// (`submits / slices`) from `clients` keep-alive clients to one allotd, then
// to the other, the order alternating from pair to pair (on first in even
// pairs), while the idle one waits; `config.slices` pairs. Each slice's durable submits per second,
// allotd's CPU time per submit and p50 are kept; audit_pairs.h sums them up.
//
// Why pairs and not two runs: on a shared machine two runs minutes apart
// differ by more than the audit log costs (docs/benchmarks.md); the slices of
// a pair are seconds apart.
//
// Contract: progress goes to `log`; a failure ends the run early with
// report.error set; both allotds are stopped with SIGTERM and the work
// folder is removed (with the Unix accounts allotd made for it).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "bench/api_report.h"
#include "bench/audit_pairs.h"

namespace allot::bench {

struct AuditPairsReport {
  ApiConfig config;
  int32_t slices = 0;
  int32_t slice_submits = 0;
  std::string error;
  std::vector<AuditPair> pairs;
  AuditPairSummary summary;
};

AuditPairsReport run_audit_pairs(const ApiConfig& config, std::FILE* log);

void print_json(const AuditPairsReport& report, std::FILE* out);
void print_table(const AuditPairsReport& report, std::FILE* out);

}  // namespace allot::bench
