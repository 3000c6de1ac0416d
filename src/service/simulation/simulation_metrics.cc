#include "service/simulation/simulation_metrics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "service/simulation/usage_series.h"

namespace allot {
namespace {

constexpr double kMillisPerHour = 3'600'000.0;

struct WaitStats {
  double mean = 0;
  double p95 = 0;
  double max = 0;
};

// Nearest-rank percentile statistics of `waits` (seconds).
WaitStats wait_stats(std::vector<double> waits) {
  WaitStats stats;
  if (waits.empty()) {
    return stats;
  }
  std::sort(waits.begin(), waits.end());
  double sum = 0;
  for (double wait : waits) {
    sum += wait;
  }
  stats.mean = sum / static_cast<double>(waits.size());
  const size_t rank = static_cast<size_t>(std::ceil(0.95 * static_cast<double>(waits.size())));
  stats.p95 = waits[std::max<size_t>(rank, 1) - 1];
  stats.max = waits.back();
  return stats;
}

// Length of the union of the intervals, in milliseconds.
int64_t union_length(std::vector<std::pair<int64_t, int64_t>> intervals) {
  std::sort(intervals.begin(), intervals.end());
  int64_t total = 0;
  int64_t covered_until = INT64_MIN;
  for (const auto& [start, end] : intervals) {
    const int64_t from = std::max(start, covered_until);
    if (end > from) {
      total += end - from;
      covered_until = end;
    }
  }
  return total;
}

struct Allocation {
  double total = 0;  // amount x milliseconds
  double above_nominal = 0;
};

// Integrates one team's allocation over time, and the part above `nominal`.
Allocation integrate(const std::vector<const RunSegment*>& segments, int64_t nominal) {
  std::vector<std::pair<int64_t, int64_t>> steps;  // (time, +amount / -amount)
  steps.reserve(segments.size() * 2);
  for (const RunSegment* segment : segments) {
    steps.emplace_back(segment->start.ms(), segment->amount);
    steps.emplace_back(segment->end.ms(), -segment->amount);
  }
  std::sort(steps.begin(), steps.end());
  Allocation allocation;
  int64_t level = 0;
  int64_t previous = steps.empty() ? 0 : steps.front().first;
  for (const auto& [time, delta] : steps) {
    const double span = static_cast<double>(time - previous);
    allocation.total += static_cast<double>(level) * span;
    allocation.above_nominal += static_cast<double>(std::max<int64_t>(0, level - nominal)) * span;
    level += delta;
    previous = time;
  }
  return allocation;
}

double compliance(int64_t compliant, int64_t owed) {
  return owed > 0 ? static_cast<double>(compliant) / static_cast<double>(owed) : 1.0;
}

Timestamp finish_or_end(const TracedWorkload& workload, Timestamp end) {
  return workload.finished_at.value_or(end);
}

TeamMetrics team_metrics(const SimulationTrace& trace, size_t team,
                         const std::vector<size_t>& workloads,
                         const std::vector<const RunSegment*>& segments) {
  TeamMetrics metrics;
  metrics.name = trace.teams[team].name;
  metrics.jobs = static_cast<int64_t>(workloads.size());
  std::vector<double> waits;
  std::vector<std::pair<int64_t, int64_t>> active;
  for (size_t index : workloads) {
    const TracedWorkload& workload = trace.workloads[index];
    active.emplace_back(workload.arrived_at.ms(), finish_or_end(workload, trace.end).ms());
    if (workload.first_admitted_at) {
      waits.push_back((*workload.first_admitted_at - workload.arrived_at).secs());
    }
  }
  const WaitStats stats = wait_stats(std::move(waits));
  metrics.mean_wait_s = stats.mean;
  metrics.p95_wait_s = stats.p95;
  metrics.max_wait_s = stats.max;
  const int64_t nominal = trace.teams[team].nominal;
  const Allocation allocation = integrate(segments, nominal);
  const int64_t active_ms = union_length(std::move(active));
  if (nominal > 0 && active_ms > 0) {
    metrics.usage =
        allocation.total / static_cast<double>(nominal) / static_cast<double>(active_ms);
  }
  if (allocation.total > 0) {
    metrics.borrowed_share = allocation.above_nominal / allocation.total;
  }
  metrics.borrowed_hours = allocation.above_nominal / kMillisPerHour;
  metrics.allocated_hours = allocation.total / kMillisPerHour;
  metrics.nominal = nominal;
  metrics.owed_cycles = trace.teams[team].owed_cycles;
  metrics.compliant_cycles = trace.teams[team].compliant_cycles;
  metrics.reclaimable_cycles = trace.teams[team].reclaimable_cycles;
  metrics.beyond_bound_cycles = trace.teams[team].beyond_bound_cycles;
  metrics.fragmented_cycles = trace.teams[team].fragmented_cycles;
  metrics.longest_violation_s = trace.teams[team].longest_violation_s;
  metrics.guarantee_compliance = compliance(metrics.compliant_cycles, metrics.owed_cycles);
  return metrics;
}

std::vector<ClassMetrics> class_metrics(const SimulationTrace& trace) {
  std::map<std::string, std::pair<double, int64_t>> tta;  // name -> (sum of tta, admitted)
  std::map<std::string, int64_t> jobs;
  for (const TracedWorkload& workload : trace.workloads) {
    ++jobs[workload.priority_class];
    auto& [sum, admitted] = tta[workload.priority_class];
    if (workload.first_admitted_at) {
      sum += (*workload.first_admitted_at - workload.arrived_at).secs();
      ++admitted;
    }
  }
  std::vector<std::string> names = trace.class_order;
  for (const auto& [name, count] : jobs) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      names.push_back(name);
    }
  }
  std::vector<ClassMetrics> classes;
  for (const std::string& name : names) {
    ClassMetrics metrics;
    metrics.name = name;
    metrics.jobs = jobs.contains(name) ? jobs[name] : 0;
    const auto [sum, admitted] = tta[name];
    metrics.tta_mean_s = admitted > 0 ? sum / static_cast<double>(admitted) : 0;
    classes.push_back(std::move(metrics));
  }
  return classes;
}

WorkloadRecord workload_record(const TracedWorkload& workload) {
  WorkloadRecord record;
  record.name = workload.name;
  record.namespace_name = workload.namespace_name;
  record.priority_class = workload.priority_class;
  record.submitted_s = workload.arrived_at.secs();
  if (workload.first_admitted_at) {
    record.admitted_s = workload.first_admitted_at->secs();
  }
  if (workload.finished_at) {
    record.finished_s = workload.finished_at->secs();
  }
  record.preemptions = workload.preemptions;
  record.moves = workload.moves;
  record.lost_amount_s = static_cast<double>(workload.lost_amount_ms) / 1000.0;
  record.restarts = workload.restarts;
  record.lost_work_s = static_cast<double>(workload.lost_work.ms()) / 1000.0;
  record.suspensions = workload.suspensions;
  record.state = workload.withdrawn     ? "ScaledDown"
                 : workload.finished_at ? "Succeeded"
                 : workload.running     ? "Running"
                 : workload.suspended   ? "Suspended"
                                        : "Pending";
  return record;
}

// Allocated amount x milliseconds within [from, to].
double allocated_within(const std::vector<RunSegment>& segments, int64_t from, int64_t to) {
  double total = 0;
  for (const RunSegment& segment : segments) {
    const int64_t start = std::max(segment.start.ms(), from);
    const int64_t end = std::min(segment.end.ms(), to);
    if (end > start) {
      total += static_cast<double>(segment.amount) * static_cast<double>(end - start);
    }
  }
  return total;
}

}  // namespace

SimulationReport summarize_simulation(const SimulationTrace& trace) {
  SimulationReport report;
  report.primary_resource = trace.primary_resource;
  report.admissions = trace.admissions;
  report.preemptions = trace.preemptions;
  report.moves = trace.moves;
  report.evictions = trace.evictions;
  report.lost_to_preemption = static_cast<double>(trace.lost_to_preemption) / 1000.0;
  report.lost_to_eviction = static_cast<double>(trace.lost_to_eviction) / 1000.0;
  report.suspensions = trace.suspensions;
  report.resumes = trace.resumes;
  report.cycles = trace.cycles;

  std::optional<Timestamp> first_arrival;
  std::optional<Timestamp> last_completion;
  for (const TracedWorkload& workload : trace.workloads) {
    if (!first_arrival || workload.arrived_at < *first_arrival) {
      first_arrival = workload.arrived_at;
    }
    if (workload.finished_at && (!last_completion || *workload.finished_at > *last_completion)) {
      last_completion = workload.finished_at;
    }
    report.workloads.push_back(workload_record(workload));
    if (!workload.finished_at && !workload.running && !workload.suspended) {
      report.never_admitted.push_back(workload.namespace_name + "/" + workload.name);
    }
  }
  if (first_arrival && last_completion && *last_completion > *first_arrival) {
    const Duration wall = *last_completion - *first_arrival;
    report.wall_s = wall.secs();
    if (trace.capacity > 0) {
      const double allocated =
          allocated_within(trace.segments, first_arrival->ms(), last_completion->ms());
      const double capacity = static_cast<double>(trace.capacity) * static_cast<double>(wall.ms());
      report.utilization = allocated / capacity;
      report.idle_hours = (capacity - allocated) / kMillisPerHour;
    }
  }

  std::vector<std::vector<size_t>> workloads_by_team(trace.teams.size());
  for (size_t i = 0; i < trace.workloads.size(); ++i) {
    workloads_by_team[trace.workloads[i].team].push_back(i);
  }
  std::vector<std::vector<const RunSegment*>> segments_by_team(trace.teams.size());
  for (const RunSegment& segment : trace.segments) {
    segments_by_team[trace.workloads[segment.workload].team].push_back(&segment);
  }
  for (size_t team = 0; team < trace.teams.size(); ++team) {
    TeamMetrics metrics =
        team_metrics(trace, team, workloads_by_team[team], segments_by_team[team]);
    if (first_arrival) {
      metrics.usage_series = usage_series(segments_by_team[team], *first_arrival, trace.end);
    }
    report.owed_cycles += metrics.owed_cycles;
    report.compliant_cycles += metrics.compliant_cycles;
    report.reclaimable_cycles += metrics.reclaimable_cycles;
    report.beyond_bound_cycles += metrics.beyond_bound_cycles;
    report.fragmented_cycles += metrics.fragmented_cycles;
    report.longest_violation_s = std::max(report.longest_violation_s, metrics.longest_violation_s);
    report.teams.push_back(std::move(metrics));
  }
  report.guarantee_compliance = compliance(report.compliant_cycles, report.owed_cycles);
  report.classes = class_metrics(trace);
  return report;
}

}  // namespace allot
