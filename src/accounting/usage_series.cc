#include "accounting/usage_series.h"

#include <algorithm>
#include <utility>

namespace allot {
namespace {

// GPU-milliseconds per bucket, own and borrowed, of one team in one flavor.
struct SeriesGpuTime {
  std::vector<int64_t> own;
  std::vector<int64_t> borrowed;
};

using SeriesKey = std::pair<size_t, std::string>;  // team index, flavor

void add_series_interval(const AllocationInterval& a, Timestamp from, Duration bucket,
                         int32_t count, SeriesGpuTime& time) {
  const Timestamp end_all = from + bucket * count;
  const Timestamp start = std::max(a.start, from);
  const Timestamp end = std::min(a.end.value_or(end_all), end_all);
  if (start >= end) return;
  const int64_t own = a.own[Resource::kGpu];
  const int64_t borrowed = a.borrowed[Resource::kGpu];
  for (int64_t i = (start - from).ms() / bucket.ms(); i < count; ++i) {
    const Timestamp lo = std::max(start, from + bucket * i);
    const Timestamp hi = std::min(end, from + bucket * (i + 1));
    if (lo >= hi) break;
    const int64_t ms = (hi - lo).ms();
    time.own[static_cast<size_t>(i)] += own * ms;
    time.borrowed[static_cast<size_t>(i)] += borrowed * ms;
  }
}

// Each team's share of its tree's borrowed GPUs in one flavor and bucket.
void add_series_lent(const std::vector<SeriesTeam>& teams, const std::vector<size_t>& members,
                     const std::string& flavor, std::vector<double>& held,
                     std::vector<double>& borrowed, std::vector<double>& lent) {
  double tree_borrowed = 0;
  double tree_idle = 0;
  std::vector<double> idle(members.size(), 0.0);
  for (size_t m = 0; m < members.size(); ++m) {
    const SeriesTeam& team = teams[members[m]];
    const auto nominal = team.nominal_gpus.find(flavor);
    const double quota =
        nominal == team.nominal_gpus.end() ? 0.0 : static_cast<double>(nominal->second);
    idle[m] = std::max(0.0, quota - held[m]);
    tree_borrowed += borrowed[m];
    tree_idle += idle[m];
  }
  if (tree_idle <= 0) return;
  const double given = std::min(tree_borrowed, tree_idle);
  for (size_t m = 0; m < members.size(); ++m) lent[m] += idle[m] * given / tree_idle;
}

}  // namespace

std::map<TeamId, std::vector<UsageBucket>> usage_series(
    const std::vector<AllocationInterval>& allocations, const std::vector<SeriesTeam>& teams,
    Timestamp from, Duration bucket, int32_t count) {
  std::map<TeamId, size_t> index;
  for (size_t t = 0; t < teams.size(); ++t) index.emplace(teams[t].team, t);
  const auto n = static_cast<size_t>(std::max(count, 0));
  std::map<SeriesKey, SeriesGpuTime> time;
  auto time_of = [&](size_t team, const std::string& flavor) -> SeriesGpuTime& {
    auto [it, added] = time.try_emplace({team, flavor});
    if (added) it->second = {std::vector<int64_t>(n, 0), std::vector<int64_t>(n, 0)};
    return it->second;
  };
  for (size_t t = 0; t < teams.size(); ++t) {
    for (const auto& [flavor, nominal] : teams[t].nominal_gpus) time_of(t, flavor);
  }
  for (const AllocationInterval& a : allocations) {
    const auto team = index.find(a.team);
    if (team == index.end()) continue;
    add_series_interval(a, from, bucket, count, time_of(team->second, a.flavor));
  }
  std::map<TeamId, std::vector<UsageBucket>> series;
  for (const SeriesTeam& team : teams) series[team.team] = std::vector<UsageBucket>(n);
  // The teams of each cohort tree and flavor: the lenders to one another.
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> trees;
  for (const auto& [key, gpu_time] : time) {
    if (!teams[key.first].root.empty())
      trees[{teams[key.first].root, key.second}].push_back(key.first);
  }
  const auto bucket_ms = static_cast<double>(bucket.ms());
  for (size_t i = 0; i < n; ++i) {
    for (const auto& [key, gpu_time] : time) {
      UsageBucket& b = series[teams[key.first].team][i];
      b.gpus += static_cast<double>(gpu_time.own[i] + gpu_time.borrowed[i]) / bucket_ms;
      b.borrowed += static_cast<double>(gpu_time.borrowed[i]) / bucket_ms;
    }
    for (const auto& [tree, members] : trees) {
      std::vector<double> held(members.size());
      std::vector<double> borrowed(members.size());
      std::vector<double> lent(members.size(), 0.0);
      for (size_t m = 0; m < members.size(); ++m) {
        const SeriesGpuTime& gpu_time = time.at({members[m], tree.second});
        held[m] = static_cast<double>(gpu_time.own[i] + gpu_time.borrowed[i]) / bucket_ms;
        borrowed[m] = static_cast<double>(gpu_time.borrowed[i]) / bucket_ms;
      }
      add_series_lent(teams, members, tree.second, held, borrowed, lent);
      for (size_t m = 0; m < members.size(); ++m) series[teams[members[m]].team][i].lent += lent[m];
    }
  }
  return series;
}

}  // namespace allot
