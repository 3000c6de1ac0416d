#include "service/control/hardware_stats.h"

#include <algorithm>
#include <utility>

#include "service/control/metering_state.h"

namespace allot {
namespace {

struct HardwareNodesNow {
  std::vector<GpuSpan> unhealthy;  // each node's GPUs while it was unhealthy
  int64_t gpus = 0;                // the GPUs of every node now
};

HardwareNodesNow hardware_nodes_now(const ServerState& state) {
  HardwareNodesNow now;
  for (const CompiledNode& compiled : state.policy.compiled()->nodes()) {
    const int64_t gpus = compiled.node.capacity[Resource::kGpu];
    now.gpus += gpus;
    const auto it = state.nodes.find(compiled.node.name);
    if (it == state.nodes.end() || gpus == 0) continue;
    std::vector<HealthChangeAt> changes;
    changes.reserve(it->second.health_history.size());
    for (const NodeHealthChange& c : it->second.health_history) {
      changes.push_back({c.at, c.healthy});
    }
    const std::vector<GpuSpan> spans =
        unhealthy_spans(static_cast<double>(gpus), changes, it->second.healthy);
    now.unhealthy.insert(now.unhealthy.end(), spans.begin(), spans.end());
  }
  return now;
}

}  // namespace

std::vector<Period> missing_in_range(const std::vector<Period>& gaps, Timestamp from,
                                     Timestamp to) {
  std::vector<Period> out;
  for (const Period& gap : gaps) {
    const Period clipped{std::max(gap.from, from), std::min(gap.to, to)};
    if (clipped.from < clipped.to) out.push_back(clipped);
  }
  return out;
}

Result<HardwareStatsView> HardwareStatsService::stats(const Principal& caller,
                                                      const StatsRange& range) const {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(caller, "list", "nodes", ""));
  HardwareStatsView view{range, {}, clock_.now(), 0, {}, {}};
  view.from = view.to - range.span;
  HardwareLedger ledger;
  {
    const CommittedRead read(cluster_);
    const ServerState& state = cluster_.view();
    if (state.policy.compiled()) {
      HardwareNodesNow now = hardware_nodes_now(state);
      ledger.unhealthy = std::move(now.unhealthy);
      view.gpus = now.gpus;
    }
    ledger.capacity = state.metering.capacity;
    ledger.missing = state.metering.gaps;
  }
  ALLOT_ASSIGN_OR_RETURN(std::vector<AllocationRecord> records,
                         cluster_.store().allocations(view.from.ms(), view.to.ms()));
  ledger.allocations.reserve(records.size());
  for (AllocationRecord& record : records) {
    ledger.allocations.push_back(allocation_interval_of(std::move(record)));
  }
  ALLOT_ASSIGN_OR_RETURN(std::vector<GpuUtilizationRecord> measured,
                         cluster_.store().gpu_utilization(view.from.ms(), view.to.ms()));
  ledger.utilization.reserve(measured.size());
  for (GpuUtilizationRecord& u : measured) {
    ledger.utilization.push_back({u.workload_id, std::move(u.gpu),
                                  Timestamp::from_millis(u.start_ms),
                                  Timestamp::from_millis(u.end_ms), u.utilization_ppm});
  }
  const auto count = static_cast<int32_t>(range.span.ms() / range.bucket.ms());
  view.buckets = hardware_series(ledger, view.from, range.bucket, count);
  view.missing = missing_in_range(ledger.missing, view.from, view.to);
  return view;
}

}  // namespace allot
