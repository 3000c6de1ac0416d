#include "bench/audit_pairs.h"

#include <algorithm>

namespace allot::bench {
namespace {

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

// The median of sorted values (the mean of the middle two for an even count).
double median_of_sorted(const std::vector<double>& sorted) {
  const size_t n = sorted.size();
  if (n == 0) return 0;
  return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

}  // namespace

double throughput_cost(const AuditPair& pair) {
  const double off = pair.off.submits_per_s();
  return off > 0 ? 1 - ratio(pair.on.submits_per_s(), off) : 0;
}

double cpu_overhead(const AuditPair& pair) {
  const double off = pair.off.allotd_cpu_us();
  return off > 0 ? ratio(pair.on.allotd_cpu_us(), off) - 1 : 0;
}

Spread spread_of(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  return {values.front(), median_of_sorted(values), values.back()};
}

AuditPairSummary summarize_audit_pairs(const std::vector<AuditPair>& pairs) {
  AuditPairSummary summary;
  summary.pairs = static_cast<int>(pairs.size());
  if (pairs.empty()) return summary;
  std::vector<double> costs;
  std::vector<double> overheads;
  std::vector<double> on_p50;
  std::vector<double> off_p50;
  AuditSlice on_total;  // every slice of a side, summed
  AuditSlice off_total;
  for (const AuditPair& pair : pairs) {
    costs.push_back(throughput_cost(pair));
    overheads.push_back(cpu_overhead(pair));
    on_p50.push_back(pair.on.p50_ms);
    off_p50.push_back(pair.off.p50_ms);
    for (auto [total, slice] : {std::pair{&on_total, &pair.on}, std::pair{&off_total, &pair.off}}) {
      total->submits += slice->submits;
      total->wall_s += slice->wall_s;
      total->allotd_cpu_s += slice->allotd_cpu_s;
    }
  }
  summary.throughput_cost = spread_of(costs);
  summary.cpu_overhead = spread_of(overheads);
  summary.median_on_p50_ms = spread_of(on_p50).median;
  summary.median_off_p50_ms = spread_of(off_p50).median;
  summary.pooled_on_per_s = on_total.submits_per_s();
  summary.pooled_off_per_s = off_total.submits_per_s();
  summary.pooled_on_cpu_us = on_total.allotd_cpu_us();
  summary.pooled_off_cpu_us = off_total.allotd_cpu_us();
  if (summary.pooled_off_per_s > 0) {
    summary.pooled_throughput_cost = 1 - summary.pooled_on_per_s / summary.pooled_off_per_s;
  }
  if (summary.pooled_off_cpu_us > 0) {
    summary.pooled_cpu_overhead = summary.pooled_on_cpu_us / summary.pooled_off_cpu_us - 1;
  }
  return summary;
}

}  // namespace allot::bench
