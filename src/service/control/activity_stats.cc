#include "service/control/activity_stats.h"

#include <string_view>

#include "accounting/activity_series.h"
#include "service/control/caller_rights.h"
#include "service/control/hardware_stats.h"

namespace allot {
namespace {

int32_t activity_bucket_count(const StatsRange& range) {
  return static_cast<int32_t>(range.span.ms() / range.bucket.ms());
}

// One event's change from its object name, "<signal>/<at ms>/<fired|resolved>"
// (signal_event_name()); none when the name is not one.
std::optional<SignalChange> signal_change_of(std::string_view name) {
  const size_t last = name.rfind('/');
  if (last == std::string_view::npos || last == 0) return std::nullopt;
  const size_t middle = name.rfind('/', last - 1);
  if (middle == std::string_view::npos) return std::nullopt;
  const std::string_view at = name.substr(middle + 1, last - middle - 1);
  if (at.empty() || at.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  int64_t ms = 0;
  for (const char c : at) ms = ms * 10 + (c - '0');
  return SignalChange{Timestamp::from_millis(ms), name.substr(last + 1) == "fired"};
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
  std::vector<CountSpan> pending;
  std::vector<CountSpan> running;
  {
    const CommittedRead read(cluster_);
    const ServerState& state = cluster_.view();
    for (const auto& [id, live] : state.workloads.all()) {
      const std::string& ns = live.doc.workload.meta.namespace_name;
      if (!visible.contains(ns)) continue;
      if (!query.namespace_name.empty() && ns != query.namespace_name) continue;
      if (!query.team.empty() && live.doc.status.team != query.team) continue;
      const WorkloadStatus& status = live.doc.status;
      if (status.finished_at && *status.finished_at < view.from) continue;
      const WorkloadSpans spans =
          workload_spans(status.created_at, status.first_admitted_at, status.finished_at);
      if (spans.pending) pending.push_back(*spans.pending);
      if (spans.running) running.push_back(*spans.running);
    }
    view.missing = missing_in_range(state.metering.gaps, view.from, view.to);
  }
  const int32_t count = activity_bucket_count(range);
  view.series.emplace_back("pending", count_series(pending, view.from, range.bucket, count));
  view.series.emplace_back("running", count_series(running, view.from, range.bucket, count));
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
        if (std::optional<SignalChange> change = signal_change_of(name)) changes.push_back(*change);
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
