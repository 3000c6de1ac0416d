#include "service/control/workload_activity.h"

#include <algorithm>
#include <utility>

#include "service/control/live_workload.h"

namespace allot {
namespace {

// The count changes a set of spans makes: +1 at each start, -1 at each end.
void add_span_changes(const std::vector<CountSpan>& spans, int64_t sign,
                      std::map<int64_t, int64_t>& changes) {
  for (const CountSpan& span : spans) {
    changes[span.from.ms()] += sign;
    if (span.to) changes[span.to->ms()] -= sign;
  }
}

void apply_span_changes(const std::vector<CountSpan>& before, const std::vector<CountSpan>& after,
                        ActivityTimeline& timeline) {
  if (before == after) return;
  std::map<int64_t, int64_t> changes;
  add_span_changes(before, -1, changes);
  add_span_changes(after, 1, changes);
  for (const auto& [ms, delta] : changes) timeline.add(Timestamp::from_millis(ms), delta);
}

}  // namespace

void WorkloadActivity::withdraw(const Key& key, const WorkloadSpans& spans) {
  Timelines& timelines = timelines_[key];
  apply_span_changes(spans.pending, {}, timelines.pending);
  apply_span_changes(spans.running, {}, timelines.running);
}

void WorkloadActivity::forget_wait(Entry& entry) {
  if (!entry.wait) return;
  auto& waits = waits_[entry.key.first];
  for (auto it = waits.find(entry.wait->first); it != waits.end(); ++it) {
    if (it->first != entry.wait->first) break;
    if (it->second == entry.wait->second) {
      waits.erase(it);
      break;
    }
  }
  entry.wait.reset();
}

void WorkloadActivity::refresh(Entry& entry) {
  entry.history.runs.clear();
  for (const auto& [start, end] : entry.runs) {
    entry.history.runs.push_back(
        {Timestamp::from_millis(start),
         end ? std::optional<Timestamp>(Timestamp::from_millis(*end)) : std::nullopt});
  }
  if (entry.history.runs.empty() && entry.first_admitted) {
    entry.history.runs.push_back({*entry.first_admitted, entry.history.finished});
  }
  WorkloadSpans spans = workload_activity_spans(entry.history);
  Timelines& timelines = timelines_[entry.key];
  apply_span_changes(entry.spans.pending, spans.pending, timelines.pending);
  apply_span_changes(entry.spans.running, spans.running, timelines.running);
  entry.spans = std::move(spans);
}

void WorkloadActivity::track(const LiveWorkload& live) { track_entry(live, entries_[live.id()]); }

void WorkloadActivity::track_entry(const LiveWorkload& live, Entry& entry) {
  const WorkloadStatus& status = live.doc.status;
  Key key{live.doc.workload.meta.namespace_name, status.team};
  if (entry.key != key) {
    if (!entry.spans.pending.empty() || !entry.spans.running.empty()) {
      withdraw(entry.key, entry.spans);
    }
    entry.spans = {};
    forget_wait(entry);
    entry.key = std::move(key);
  }
  entry.history.created = status.created_at;
  entry.history.finished = status.finished_at;
  entry.history.waiting = is_waiting(status.phase);
  entry.first_admitted = status.first_admitted_at;
  if (!entry.wait && status.first_admitted_at) {
    entry.wait = {status.first_admitted_at->ms(),
                  (*status.first_admitted_at - status.created_at).secs()};
    waits_[entry.key.first].emplace(entry.wait->first, entry.wait->second);
  }
  if (holds_quota(status.phase)) {
    holding_.insert(live.id());
  } else {
    holding_.erase(live.id());
  }
  refresh(entry);
}

void WorkloadActivity::note_run(const AllocationRecord& allocation) {
  const auto it = entries_.find(allocation.workload_id);
  if (it == entries_.end()) return;
  it->second.runs[allocation.start_ms] = allocation.end_ms;
}

void WorkloadActivity::erase(WorkloadId id) {
  const auto it = entries_.find(id);
  if (it == entries_.end()) return;
  Entry& entry = it->second;
  withdraw(entry.key, entry.spans);
  forget_wait(entry);
  holding_.erase(id);
  entries_.erase(it);
}

void WorkloadActivity::track_batch(const WriteBatch& batch, const WorkloadTable& table) {
  for (const WorkloadId id : batch.delete_workloads) erase(id);
  // The workloads the batch touches, in id order, each with the allocations
  // put for it in batch order (null: its record only). Sorted once, not a set
  // and four tree lookups per allocation: a pass that admits thousands of
  // workloads puts as many records and allocations, and this walk was most of
  // what the ledger's puts cost that pass outside the store
  // (docs/benchmarks.md, issue 14's metering overhead).
  using Touch = std::pair<WorkloadId, const AllocationRecord*>;
  std::vector<Touch> touched;
  touched.reserve(batch.put_workloads.size() + batch.put_allocations.size());
  for (const WorkloadRecord& record : batch.put_workloads) touched.emplace_back(record.id, nullptr);
  for (const AllocationRecord& allocation : batch.put_allocations) {
    touched.emplace_back(allocation.workload_id, &allocation);
  }
  std::stable_sort(touched.begin(), touched.end(),
                   [](const Touch& a, const Touch& b) { return a.first < b.first; });
  for (auto first = touched.begin(); first != touched.end();) {
    const WorkloadId id = first->first;
    const auto last =
        std::find_if(first, touched.end(), [id](const Touch& touch) { return touch.first != id; });
    const LiveWorkload* live = table.find(id);
    const auto found = live != nullptr ? entries_.end() : entries_.find(id);
    if (live != nullptr || found != entries_.end()) {
      // Its runs first, then its spans once (a workload not tracked yet is
      // tracked with them).
      Entry& entry = live != nullptr ? entries_[id] : found->second;
      for (auto touch = first; touch != last; ++touch) {
        if (touch->second != nullptr) entry.runs[touch->second->start_ms] = touch->second->end_ms;
      }
      if (live != nullptr) {
        track_entry(*live, entry);
      } else {
        refresh(entry);
      }
    }
    first = last;
  }
}

void WorkloadActivity::rebuild(const WorkloadTable& table,
                               const std::vector<AllocationRecord>& ledger) {
  entries_.clear();
  timelines_.clear();
  waits_.clear();
  holding_.clear();
  // Runs first, then one track() per workload: each workload's spans once.
  for (const AllocationRecord& allocation : ledger) {
    const LiveWorkload* live = table.find(allocation.workload_id);
    if (live == nullptr) continue;
    entries_[allocation.workload_id].runs[allocation.start_ms] = allocation.end_ms;
  }
  for (const auto& [id, live] : table.all()) {
    Entry& entry = entries_[id];
    entry.key = {live.doc.workload.meta.namespace_name, live.doc.status.team};
    track(live);
  }
}

void WorkloadActivity::add_series(const KeyFilter& keep, Timestamp from, Duration bucket,
                                  int32_t count, std::vector<double>& pending,
                                  std::vector<double>& running) const {
  pending.resize(static_cast<size_t>(std::max(count, 0)), 0.0);
  running.resize(static_cast<size_t>(std::max(count, 0)), 0.0);
  for (const auto& [key, timelines] : timelines_) {
    if (!keep(key.first, key.second)) continue;
    timelines.pending.add_means(from, bucket, count, pending);
    timelines.running.add_means(from, bucket, count, running);
  }
}

std::vector<double> WorkloadActivity::waits(const std::string& ns, Timestamp from,
                                            Timestamp to) const {
  std::vector<double> found;
  const auto it = waits_.find(ns);
  if (it == waits_.end()) return found;
  const auto end = it->second.upper_bound(to.ms());
  for (auto w = it->second.lower_bound(from.ms()); w != end; ++w) found.push_back(w->second);
  return found;
}

}  // namespace allot
