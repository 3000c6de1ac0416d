#include "service/simulation/trace_arrivals.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

namespace allot {
namespace {

// Largest gang a job may become; a larger one is a corrupt trace.
constexpr int64_t kMaxPodsPerJob = 100'000;

std::string lowest_priority_class(const Policy& policy) {
  const PriorityClass* lowest = nullptr;
  for (const PriorityClass& priority_class : policy.priority_classes) {
    if (lowest == nullptr || priority_class.value < lowest->value) {
      lowest = &priority_class;
    }
  }
  return lowest == nullptr ? std::string() : lowest->meta.name;
}

}  // namespace

PodSet trace_gang(int64_t gpus, int64_t gpus_per_node) {
  PodSet pods;
  const int64_t pod_count = gpus <= gpus_per_node ? 1 : (gpus + gpus_per_node - 1) / gpus_per_node;
  pods.count = static_cast<int32_t>(pod_count);
  pods.resources[Resource::kGpu] = std::min(gpus, gpus_per_node);
  return pods;
}

namespace {

std::string line_of(int64_t line) { return "line " + std::to_string(line); }

Arrival arrival_of(const TraceJob& job, std::string namespace_name, Timestamp origin,
                   const std::string& default_class, const TraceArrivalOptions& options) {
  Arrival arrival;
  const double offset_ms = static_cast<double>((job.submit - origin).ms()) / options.load_factor;
  arrival.at = Timestamp::epoch() + Duration::millis(std::llround(offset_ms));
  arrival.runtime = job.duration;
  Workload& workload = arrival.workload;
  workload.meta.name = job.name.value_or("job-" + std::to_string(job.line));
  workload.meta.namespace_name = std::move(namespace_name);
  workload.spec.kind = WorkloadKind::kJob;
  workload.spec.priority_class = job.priority_class.value_or(default_class);
  workload.spec.pod_sets.push_back(trace_gang(job.gpus, options.gpus_per_node));
  return arrival;
}

// Two jobs of one namespace with one name: the later one's line, the first's in the message.
Status check_unique_name(const Arrival& arrival, int64_t line,
                         std::map<std::string, int64_t>& first_lines) {
  const Workload& workload = arrival.workload;
  const auto [at, inserted] =
      first_lines.emplace(workload.meta.namespace_name + "/" + workload.meta.name, line);
  if (inserted) {
    return {};
  }
  return invalid_argument("duplicate job name '" + workload.meta.name + "' in namespace '" +
                              workload.meta.namespace_name + "' (first on line " +
                              std::to_string(at->second) + ")",
                          line_of(line));
}

}  // namespace

int64_t SkippedJobs::total() const {
  int64_t sum = zero_gpus + zero_duration;
  for (const auto& [name, count] : unknown_team) {
    sum += count;
  }
  return sum;
}

std::string team_namespace(std::string_view team, std::string_view prefix) {
  std::string name(prefix);
  for (const char c : team) {
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    const bool valid = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') ||
                       lower == '-' || lower == '.';
    name += valid ? lower : '-';
  }
  return name;
}

Result<TraceArrivals> trace_arrivals(const std::vector<TraceJob>& jobs, const Policy& policy,
                                     const TraceArrivalOptions& options) {
  if (!(options.load_factor > 0) || !std::isfinite(options.load_factor)) {
    return invalid_argument("the load factor must be a positive number", "load factor");
  }
  TraceArrivals result;
  if (!jobs.empty()) {
    result.origin = std::min_element(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) {
                      return a.submit < b.submit;
                    })->submit;
  }
  std::set<std::string, std::less<>> namespaces;
  for (const Team& team : policy.teams) {
    namespaces.insert(team.namespace_name.empty() ? team.meta.name : team.namespace_name);
  }
  const std::string default_class = lowest_priority_class(policy);
  std::vector<Arrival> arrivals;
  arrivals.reserve(jobs.size());
  std::map<std::string, int64_t> first_lines;
  for (const TraceJob& job : jobs) {
    if (job.gpus == 0) {
      ++result.skipped.zero_gpus;
      continue;
    }
    if (job.duration <= Duration()) {
      ++result.skipped.zero_duration;
      continue;
    }
    if (job.gpus > options.gpus_per_node * kMaxPodsPerJob) {
      return invalid_argument("a job of " + std::to_string(job.gpus) + " GPUs is too large",
                              line_of(job.line));
    }
    std::string namespace_name = team_namespace(job.team, options.namespace_prefix);
    if (!namespaces.contains(namespace_name)) {
      ++result.skipped.unknown_team[namespace_name];
      continue;
    }
    arrivals.push_back(
        arrival_of(job, std::move(namespace_name), result.origin, default_class, options));
    ALLOT_RETURN_IF_ERROR(check_unique_name(arrivals.back(), job.line, first_lines));
    result.lines.push_back(job.line);
  }
  ALLOT_ASSIGN_OR_RETURN(result.arrivals, ArrivalStream::create(std::move(arrivals)));
  return result;
}

}  // namespace allot
