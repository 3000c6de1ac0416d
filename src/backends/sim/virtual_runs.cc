#include "backends/sim/virtual_runs.h"

#include "base/check.h"

namespace allot::sim {

void VirtualRuns::observe(Timestamp now) {
  ALLOT_CHECK(now >= last_seen_);
  last_seen_ = now;
}

void VirtualRuns::start(SimWorkId work, Duration remaining, bool checkpointed, Timestamp now) {
  ALLOT_CHECK(work.valid());
  ALLOT_CHECK(!is_running(work));
  ALLOT_CHECK(remaining >= Duration());
  observe(now);
  Run run;
  run.started_at = now;
  run.remaining_at_start = remaining;
  run.checkpointed = checkpointed;
  run.natural_end = now + remaining;
  schedule_.emplace(run.end().ms(), work.value());
  runs_.emplace(work.value(), run);
}

void VirtualRuns::stop(SimWorkId work, Duration grace, Timestamp now) {
  ALLOT_CHECK(grace >= Duration());
  observe(now);
  auto it = runs_.find(work.value());
  ALLOT_CHECK(it != runs_.end());
  Run& run = it->second;
  const Timestamp requested = now + grace;
  if (requested >= run.stop_at) {
    return;  // an earlier stop request already stands
  }
  schedule_.erase({run.end().ms(), work.value()});
  run.stop_at = requested;
  schedule_.emplace(run.end().ms(), work.value());
}

bool VirtualRuns::is_stopping(SimWorkId work) const {
  auto it = runs_.find(work.value());
  ALLOT_CHECK(it != runs_.end());
  return it->second.stop_at != Timestamp::infinite_future();
}

Timestamp VirtualRuns::end_time(SimWorkId work) const {
  auto it = runs_.find(work.value());
  ALLOT_CHECK(it != runs_.end());
  return it->second.end();
}

Duration VirtualRuns::remaining_at(SimWorkId work, Timestamp now) const {
  auto it = runs_.find(work.value());
  ALLOT_CHECK(it != runs_.end());
  const Run& run = it->second;
  if (now >= run.natural_end) {
    return Duration();
  }
  return run.natural_end - now;
}

Timestamp VirtualRuns::next_event_time() const {
  if (schedule_.empty()) {
    return Timestamp::infinite_future();
  }
  return Timestamp::from_millis(schedule_.begin()->first);
}

std::vector<SimEvent> VirtualRuns::take_due(Timestamp now) {
  observe(now);
  std::vector<SimEvent> events;
  while (!schedule_.empty() && schedule_.begin()->first <= now.ms()) {
    const uint64_t id = schedule_.begin()->second;
    schedule_.erase(schedule_.begin());
    auto it = runs_.find(id);
    ALLOT_CHECK(it != runs_.end());
    const Run& run = it->second;
    SimEvent event;
    event.work = SimWorkId(id);
    event.at = run.end();
    event.started_at = run.started_at;
    if (run.natural_end <= run.stop_at) {
      event.kind = SimEventKind::kCompleted;
    } else {
      event.kind = SimEventKind::kStopped;
      const Duration ran = run.stop_at - run.started_at;
      event.remaining = run.checkpointed ? run.remaining_at_start - ran : run.remaining_at_start;
    }
    runs_.erase(it);
    events.push_back(event);
  }
  return events;
}

}  // namespace allot::sim
