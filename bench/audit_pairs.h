// The audit log's cost measured in one run (`allot-bench api --audit both`):
// two allotds, one with the audit log on and one with it off, fed the same
// submits in alternating slices, so that the machine's drift (load from
// elsewhere, page cache, CPU frequency) falls on both sides of every pair
// alike. This file is the arithmetic over the slices; bench/api_pairs.h runs
// them.
//
// Contract (pure):
// - A pair is one slice of each side, run one right after the other (the
//   order alternates between pairs). Its throughput cost is 1 - on/off of
//   the durable submits per second, its CPU overhead on/off - 1 of allotd's
//   CPU time per submit.
// - summarize_audit_pairs(): the median, lowest and highest of each over the
//   pairs, and the pooled figures (every slice's submits over every slice's
//   time, per side). No pairs: every figure 0.
#pragma once

#include <vector>

namespace allot::bench {

// One side's slice.
struct AuditSlice {
  double submits = 0;  // answered 201
  double wall_s = 0;
  double allotd_cpu_s = 0;
  double p50_ms = 0;

  [[nodiscard]] double submits_per_s() const { return wall_s > 0 ? submits / wall_s : 0; }
  // allotd's CPU time per submit, in µs.
  [[nodiscard]] double allotd_cpu_us() const {
    return submits > 0 ? allotd_cpu_s * 1e6 / submits : 0;
  }
};

struct AuditPair {
  AuditSlice on;
  AuditSlice off;
  bool on_first = true;
};

struct Spread {
  double min = 0;
  double median = 0;
  double max = 0;
};

struct AuditPairSummary {
  int pairs = 0;
  Spread throughput_cost;  // 1 - on/off, per pair
  Spread cpu_overhead;     // on/off - 1, per pair
  double pooled_on_per_s = 0;
  double pooled_off_per_s = 0;
  double pooled_throughput_cost = 0;
  double pooled_on_cpu_us = 0;
  double pooled_off_cpu_us = 0;
  double pooled_cpu_overhead = 0;
  double median_on_p50_ms = 0;
  double median_off_p50_ms = 0;
};

double throughput_cost(const AuditPair& pair);
double cpu_overhead(const AuditPair& pair);
Spread spread_of(std::vector<double> values);
AuditPairSummary summarize_audit_pairs(const std::vector<AuditPair>& pairs);

}  // namespace allot::bench
