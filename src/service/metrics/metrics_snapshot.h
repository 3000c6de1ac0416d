// MetricsSnapshot: everything /metrics shows at one instant (docs/metrics.md),
// as plain values, so that rendering it (prometheus_text.h) is a pure
// function that tests drive without a daemon.
//
// Contract: value types. Team-keyed parts hold only the teams the caller may
// see; `cluster` (nodes, the scheduler, the HTTP server) is set only for a
// caller who may see metrics of the whole cluster. Amounts are in the
// project's units (millicores, bytes); the renderer converts to base units.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "base/quantity.h"
#include "model/gpu_usage_sample.h"
#include "model/views/quota_usage_view.h"
#include "service/metrics/histogram.h"

namespace allot {

// The teams' side of what happened since allotd started.
struct TeamActivity {
  std::map<std::string, Histogram> admission_wait;  // by team, seconds
  // (team of the victim, reason) -> preemptions.
  std::map<std::pair<std::string, std::string>, uint64_t> preemptions;

  friend bool operator==(const TeamActivity&, const TeamActivity&) = default;
};

struct RequestKey {
  std::string route;  // the route's pattern, not the path (bounded cardinality)
  std::string method;
  int code = 0;

  friend auto operator<=>(const RequestKey&, const RequestKey&) = default;
};

// The cluster's side: the scheduler and the HTTP server since allotd started.
struct ClusterActivity {
  Histogram cycle_duration;        // seconds per scheduling cycle
  Histogram admissions_per_cycle;  // admissions per cycle
  std::map<RequestKey, uint64_t> requests;
  // (route, method) -> seconds per request.
  std::map<std::pair<std::string, std::string>, Histogram> request_duration;

  friend bool operator==(const ClusterActivity&, const ClusterActivity&) = default;
};

struct NodeSample {
  std::string name;
  std::string flavor;
  std::string pool;
  bool healthy = true;
  bool cordoned = false;
  ResourceVector capacity;
  ResourceVector allocated;

  friend bool operator==(const NodeSample&, const NodeSample&) = default;
};

// Cost accrued by a team on a flavor since the start of the current UTC month.
struct TeamCost {
  std::string team;
  std::string flavor;
  std::string currency;
  double amount = 0;

  friend bool operator==(const TeamCost&, const TeamCost&) = default;
};

// A Budget's standing in its current period (service/control/budget_monitor.h):
// a team's (`team`) or a project's (`project`, a Contract's name).
struct BudgetSample {
  std::string name;
  std::string team;
  std::string project;
  std::string currency;
  double amount = 0;
  double spent = 0;

  friend bool operator==(const BudgetSample&, const BudgetSample&) = default;
};

struct ClusterMetrics {
  std::vector<NodeSample> nodes;
  ClusterActivity activity;
};

struct MetricsSnapshot {
  std::vector<QuotaUsageRow> quotas;  // per team, flavor, resource
  TeamActivity teams;
  std::vector<TeamCost> costs;
  std::vector<BudgetSample> budgets;
  std::optional<ClusterMetrics> cluster;  // only for a cluster-wide caller
  // Measured GPU utilisation (Executor::gpu_usage()): a team-scoped caller
  // sees its teams' GPUs only, never a GPU no pod holds. Empty: not measured.
  std::vector<GpuUsageSample> gpus;
  // Each policy node's flavor: the `flavor` of allot_team_gpus_allocated_idle.
  std::map<std::string, std::string> node_flavors;
};

// A held GPU whose last measured utilisation (NVML's last sample period) is
// below this is allocated but idle (allot_team_gpus_allocated_idle).
inline constexpr double kIdleGpuUtilization = 0.05;

}  // namespace allot
