#include "service/simulation/trace_metrics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace allot {
namespace {

// Queueing delays and completion times of a group of workloads.
struct Samples {
  std::vector<double> queue;
  double jct_sum = 0;
  int64_t jobs = 0;
  int64_t finished = 0;
  int64_t preemptions = 0;
  int64_t moves = 0;
  double lost_amount_s = 0;

  void add(const WorkloadRecord& record) {
    ++jobs;
    preemptions += record.preemptions;
    moves += record.moves;
    lost_amount_s += record.lost_amount_s;
    if (record.admitted_s) {
      queue.push_back(*record.admitted_s - record.submitted_s);
    }
    if (record.finished_s) {
      ++finished;
      jct_sum += *record.finished_s - record.submitted_s;
    }
  }
};

// Nearest rank: the smallest sample with at least `fraction` of them at or below it.
double nearest_rank(const std::vector<double>& sorted, double fraction) {
  const auto rank = static_cast<size_t>(std::ceil(fraction * static_cast<double>(sorted.size())));
  return sorted[std::max<size_t>(rank, 1) - 1];
}

TraceMetrics metrics_of(Samples samples) {
  TraceMetrics metrics;
  metrics.jobs = samples.jobs;
  metrics.finished = samples.finished;
  metrics.preemptions = samples.preemptions;
  metrics.moves = samples.moves;
  metrics.lost_gpu_hours = samples.lost_amount_s / 3600.0;
  if (samples.finished > 0) {
    metrics.mean_jct_s = samples.jct_sum / static_cast<double>(samples.finished);
  }
  std::vector<double>& queue = samples.queue;
  if (queue.empty()) {
    return metrics;
  }
  std::sort(queue.begin(), queue.end());
  double sum = 0;
  for (const double delay : queue) {
    sum += delay;
  }
  metrics.mean_queue_s = sum / static_cast<double>(queue.size());
  metrics.median_queue_s = nearest_rank(queue, 0.5);
  metrics.p95_queue_s = nearest_rank(queue, 0.95);
  metrics.max_queue_s = queue.back();
  return metrics;
}

// The one GPU-hour price of the policy's flavors, if they agree (see the header).
std::optional<FlavorPrice> uniform_gpu_price(const Policy& policy) {
  std::optional<FlavorPrice> price;
  for (const ResourceFlavor& flavor : policy.flavors) {
    if (flavor.price.gpu_hour <= 0) {
      continue;
    }
    if (price &&
        (price->gpu_hour != flavor.price.gpu_hour || price->currency != flavor.price.currency)) {
      return std::nullopt;
    }
    price = flavor.price;
  }
  return price;
}

void add_cost(TraceMetrics& metrics, const std::optional<FlavorPrice>& price) {
  if (!price) {
    return;
  }
  metrics.cost = (metrics.own_gpu_hours + metrics.borrowed_gpu_hours) * price->gpu_hour;
  metrics.borrowed_cost = metrics.borrowed_gpu_hours * price->gpu_hour;
  metrics.idle_cost = metrics.idle_gpu_hours * price->gpu_hour;
}

}  // namespace

TraceSummary summarize_trace_run(const SimulationReport& report, const Policy& policy) {
  std::map<std::string, size_t, std::less<>> team_by_namespace;
  for (size_t i = 0; i < policy.teams.size(); ++i) {
    team_by_namespace.emplace(policy.teams[i].namespace_name, i);
  }
  Samples overall;
  std::vector<Samples> per_team(policy.teams.size());
  for (const WorkloadRecord& record : report.workloads) {
    overall.add(record);
    if (auto it = team_by_namespace.find(record.namespace_name); it != team_by_namespace.end()) {
      per_team[it->second].add(record);
    }
  }
  TraceSummary summary;
  summary.queue_delays_s = overall.queue;
  std::sort(summary.queue_delays_s.begin(), summary.queue_delays_s.end());
  summary.overall = metrics_of(std::move(overall));
  summary.overall.guarantee_compliance = report.guarantee_compliance;
  summary.overall.violated_cycles_reclaimable = report.reclaimable_cycles;
  summary.overall.violated_cycles_beyond_bound = report.beyond_bound_cycles;
  summary.overall.violated_cycles_fragmented = report.fragmented_cycles;
  summary.overall.longest_violation_s = report.longest_violation_s;
  summary.overall.utilization = report.utilization;
  summary.overall.preemptions = report.preemptions;
  summary.overall.moves = report.moves;
  for (size_t i = 0; i < policy.teams.size(); ++i) {
    TeamTraceMetrics team;
    team.team = policy.teams[i].meta.name;
    team.metrics = metrics_of(std::move(per_team[i]));
    const auto it = std::find_if(report.teams.begin(), report.teams.end(),
                                 [&](const TeamMetrics& m) { return m.name == team.team; });
    if (it != report.teams.end()) {
      team.metrics.utilization = it->usage;
      team.metrics.borrowed_gpu_hours = it->borrowed_hours;
      team.metrics.own_gpu_hours = it->allocated_hours - it->borrowed_hours;
      summary.overall.own_gpu_hours += team.metrics.own_gpu_hours;
      team.metrics.guarantee_compliance = it->guarantee_compliance;
      team.metrics.violated_cycles_reclaimable = it->reclaimable_cycles;
      team.metrics.violated_cycles_beyond_bound = it->beyond_bound_cycles;
      team.metrics.violated_cycles_fragmented = it->fragmented_cycles;
      team.metrics.longest_violation_s = it->longest_violation_s;
      team.nominal = it->nominal;
      team.usage_series = it->usage_series;
      summary.overall.borrowed_gpu_hours += it->borrowed_hours;
    }
    summary.teams.push_back(std::move(team));
  }
  summary.overall.idle_gpu_hours = report.idle_hours;
  const std::optional<FlavorPrice> price = uniform_gpu_price(policy);
  if (price) {
    summary.gpu_hour_price = price->gpu_hour;
    summary.currency = price->currency;
  }
  add_cost(summary.overall, price);
  for (TeamTraceMetrics& team : summary.teams) {
    add_cost(team.metrics, price);
  }
  return summary;
}

}  // namespace allot
