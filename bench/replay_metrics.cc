#include "bench/replay_metrics.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>

#include "api/rfc3339.h"

namespace allot::bench {
namespace {

struct Window {
  double first = std::numeric_limits<double>::max();
  double last = 0;
};

Result<Timestamp> time_at(const nlohmann::json& value) {
  if (!value.is_string()) return invalid_argument("missing time in a workload's status");
  return parse_rfc3339(value.get<std::string>());
}

Result<double> seconds_at(const nlohmann::json& value, int64_t start_ms) {
  ALLOT_ASSIGN_OR_RETURN(const Timestamp at, time_at(value));
  return static_cast<double>(at.ms() - start_ms) / 1000.0;
}

}  // namespace

Result<ReplayMetrics> replay_metrics(const std::vector<nlohmann::json>& workloads,
                                     const std::vector<UsageSample>& samples, int64_t start_ms) {
  ReplayMetrics metrics;
  std::map<std::string, std::pair<double, int64_t>> tta;
  std::map<std::string, Window> windows;
  double first = std::numeric_limits<double>::max();
  double last = 0;
  for (const nlohmann::json& workload : workloads) {
    const nlohmann::json& status = workload.at("status");
    ++metrics.workloads;
    metrics.preemptions += status.value("restarts", 0);
    ALLOT_ASSIGN_OR_RETURN(const double created, seconds_at(status.at("createdAt"), start_ms));
    first = std::min(first, created);
    Window& window = windows[status.value("team", "")];
    window.first = std::min(window.first, created);
    if (status.at("firstAdmittedAt").is_string()) {
      ALLOT_ASSIGN_OR_RETURN(const double admitted,
                             seconds_at(status.at("firstAdmittedAt"), start_ms));
      auto& [sum, count] = tta[workload.at("spec").value("priorityClass", "")];
      sum += admitted - created;
      ++count;
    }
    if (status.at("finishedAt").is_string()) {
      ALLOT_ASSIGN_OR_RETURN(const double finished, seconds_at(status.at("finishedAt"), start_ms));
      ++metrics.finished;
      last = std::max(last, finished);
      window.last = std::max(window.last, finished);
    }
  }
  metrics.wall_s = metrics.workloads > 0 ? last - first : 0;
  for (const auto& [name, sum_count] : tta) {
    metrics.class_tta_s[name] = sum_count.first / static_cast<double>(sum_count.second);
  }
  metrics.lowest_team_usage = windows.empty() ? 0 : std::numeric_limits<double>::max();
  for (const auto& [team, window] : windows) {
    double sum = 0;
    int64_t count = 0;
    for (const UsageSample& sample : samples) {
      if (sample.t_s < window.first || sample.t_s > window.last) continue;
      auto it = sample.usage.find(team);
      sum += it == sample.usage.end() ? 0 : it->second;
      ++count;
    }
    const double usage = count > 0 ? sum / static_cast<double>(count) : 0;
    metrics.team_usage[team] = usage;
    metrics.lowest_team_usage = std::min(metrics.lowest_team_usage, usage);
  }
  return metrics;
}

namespace {

struct HeldRun {
  std::string priority_class;
  int64_t held_ms = 0;
};

// finishedAt - admittedAt - runtime of every workload that counts (see the header).
Result<std::vector<HeldRun>> held_runs(const std::vector<nlohmann::json>& workloads,
                                       const std::map<std::string, int64_t>& runtimes_ms) {
  std::vector<HeldRun> held;
  for (const nlohmann::json& workload : workloads) {
    const nlohmann::json& status = workload.at("status");
    const nlohmann::json& metadata = workload.at("metadata");
    const auto runtime =
        runtimes_ms.find(metadata.value("namespace", "") + "/" + metadata.value("name", ""));
    // Left out: not in the scenario, restarted, not finished, or finished
    // without ever being admitted (cancelled while it waited).
    if (runtime == runtimes_ms.end() || status.value("restarts", 0) != 0 ||
        !status.value("finishedAt", nlohmann::json()).is_string() ||
        status.value("admittedAt", nlohmann::json()).is_null()) {
      continue;
    }
    ALLOT_ASSIGN_OR_RETURN(const Timestamp admitted,
                           time_at(status.value("admittedAt", nlohmann::json())));
    ALLOT_ASSIGN_OR_RETURN(const Timestamp finished, time_at(status.at("finishedAt")));
    const nlohmann::json& spec = workload.value("spec", nlohmann::json::object());
    held.push_back({spec.value("priorityClass", ""), (finished - admitted).ms() - runtime->second});
  }
  return held;
}

// REQUIRES: !values.empty().
int64_t median_of(std::vector<int64_t> values) {
  auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

}  // namespace

Result<std::optional<int64_t>> median_held_beyond_runtime_ms(
    const std::vector<nlohmann::json>& workloads,
    const std::map<std::string, int64_t>& runtimes_ms) {
  ALLOT_ASSIGN_OR_RETURN(const std::vector<HeldRun> runs, held_runs(workloads, runtimes_ms));
  if (runs.empty()) return std::optional<int64_t>();
  std::vector<int64_t> held;
  held.reserve(runs.size());
  for (const HeldRun& run : runs) held.push_back(run.held_ms);
  return std::optional<int64_t>(median_of(std::move(held)));
}

Result<std::map<std::string, int64_t>> held_beyond_runtime_ms_by_class(
    const std::vector<nlohmann::json>& workloads,
    const std::map<std::string, int64_t>& runtimes_ms) {
  ALLOT_ASSIGN_OR_RETURN(const std::vector<HeldRun> runs, held_runs(workloads, runtimes_ms));
  std::map<std::string, std::vector<int64_t>> by_class;
  for (const HeldRun& run : runs) by_class[run.priority_class].push_back(run.held_ms);
  std::map<std::string, int64_t> medians;
  for (auto& [name, held] : by_class) medians[name] = median_of(std::move(held));
  return medians;
}

}  // namespace allot::bench
