#include "service/control/activity_stats.h"

#include <string>
#include <string_view>
#include <utility>

#include "accounting/activity_series.h"
#include "service/control/caller_rights.h"
#include "service/control/hardware_stats.h"
#include "service/control/signal_state.h"

namespace allot {
namespace {

int32_t activity_bucket_count(const StatsRange& range) {
  return static_cast<int32_t>(range.span.ms() / range.bucket.ms());
}

}  // namespace

Result<ActivityStatsView> ActivityStatsService::workloads(
    const Principal& caller, const StatsRange& range, const WorkloadActivityQuery& query) const {
  WorkloadQuery where;
  where.namespace_name = query.namespace_name;
  ALLOT_ASSIGN_OR_RETURN(const VisibleNamespaces visible,
                         visible_namespaces(cluster_.access(), caller, "workloads", where));
  ActivityStatsView view{range, {}, clock_.now(), {}, {}};
  view.from = view.to - range.span;
  const int32_t count = activity_bucket_count(range);
  std::vector<double> pending;
  std::vector<double> running;
  auto keep = [&visible, &query](const std::string& ns, const std::string& team) {
    return visible.contains(ns) && (query.namespace_name.empty() || ns == query.namespace_name) &&
           (query.team.empty() || team == query.team);
  };
  {
    const CommittedRead read(cluster_);
    const ServerState& state = cluster_.view();
    state.activity.add_series(keep, view.from, range.bucket, count, pending, running);
    view.missing = missing_in_range(state.metering.gaps, view.from, view.to);
  }
  view.series.emplace_back("pending", std::move(pending));
  view.series.emplace_back("running", std::move(running));
  return view;
}

Result<ActivityStatsView> ActivityStatsService::signals(const Principal& caller,
                                                        const StatsRange& range) const {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(caller, "list", "signals", ""));
  ActivityStatsView view{range, {}, clock_.now(), {}, {}};
  view.from = view.to - range.span;
  std::vector<CountSpan> firing;
  {
    const CommittedRead read(cluster_);
    const ServerState& state = cluster_.view();
    for (const auto& [signal, events] : state.signals.history) {
      std::vector<SignalChange> changes;
      changes.reserve(events.size());
      for (const auto& [name, document] : events) {
        if (const auto key = parse_signal_event_name(name)) {
          changes.push_back({key->at, key->fired});
        }
      }
      const std::vector<CountSpan> spans = firing_spans(changes);
      firing.insert(firing.end(), spans.begin(), spans.end());
    }
    view.missing = missing_in_range(state.metering.gaps, view.from, view.to);
  }
  view.series.emplace_back(
      "firing", count_series(firing, view.from, range.bucket, activity_bucket_count(range)));
  return view;
}

}  // namespace allot
