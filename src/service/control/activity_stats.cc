#include "service/control/activity_stats.h"

#include <string_view>

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
