// VirtualRuns: the timing core of the simulated backend (VirtualExecutor,
// virtual_executor.h). It runs work items on virtual time: nothing executes,
// it only computes when each item completes or stops, the way a real backend
// would report it.
//
// Contract:
// - Virtual nodes are implicit: placement is decided by the caller (the
//   scheduler); the executor tracks only how much work each item has left.
// - start(id, remaining, checkpointed, now) runs an item that needs
//   `remaining` more work; it completes at now + remaining unless stopped.
// - stop(id, grace, now) asks an item to stop: it stops at
//   min(now + grace, natural end). If the natural end comes first (or at the
//   same instant) the item completes instead. A later stop can only bring the
//   stop earlier.
// - Checkpoint semantics: a stopped item that checkpoints keeps its progress
//   (its next run needs `remaining - ran`); one that does not restarts from
//   zero (its next run needs the same `remaining` it was started with, which
//   callers keep equal to the whole runtime for such items).
// - take_due(now) returns, in (time, id) order, the events at or before
//   `now`; an item is running from start() until its event is taken.
// - Time never goes backwards: every `now` is >= the previous one.
// Deterministic, no clock, no threads; a plain value. Thread-compatible.
// May include only base and model (DESIGN.md section 10).
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/strong_id.h"
#include "base/time.h"

namespace allot::sim {

// The executor's own identifier of a work item (the caller maps its ids onto it).
using SimWorkId = StrongId<struct SimWorkIdTag, uint64_t>;

enum class SimEventKind : uint8_t {
  kCompleted,  // all of the work was done
  kStopped,    // stopped on request before the work was done
};

struct SimEvent {
  SimWorkId work;
  SimEventKind kind = SimEventKind::kCompleted;
  Timestamp at;          // when it completed or stopped
  Timestamp started_at;  // when the run that ended began
  Duration remaining;    // work the next run needs (zero when completed)

  friend bool operator==(const SimEvent&, const SimEvent&) = default;
};

class VirtualRuns {
 public:
  // REQUIRES: !is_running(work); work.valid(); remaining >= 0; now >= the last time seen.
  void start(SimWorkId work, Duration remaining, bool checkpointed, Timestamp now);
  // REQUIRES: is_running(work); grace >= 0; now >= the last time seen.
  void stop(SimWorkId work, Duration grace, Timestamp now);

  [[nodiscard]] bool is_running(SimWorkId work) const { return runs_.contains(work.value()); }
  // True once stop() was called for the current run.
  // REQUIRES: is_running(work).
  [[nodiscard]] bool is_stopping(SimWorkId work) const;
  // When the current run will end (completion or stop), as things stand.
  // REQUIRES: is_running(work).
  [[nodiscard]] Timestamp end_time(SimWorkId work) const;
  // Work left at `now` if it kept running. REQUIRES: is_running(work).
  [[nodiscard]] Duration remaining_at(SimWorkId work, Timestamp now) const;

  // The earliest pending event, or Timestamp::infinite_future() when idle.
  [[nodiscard]] Timestamp next_event_time() const;
  // Removes and returns every event at or before `now`, ordered by (at, id).
  // REQUIRES: now >= the last time seen.
  std::vector<SimEvent> take_due(Timestamp now);

  [[nodiscard]] size_t running_count() const { return runs_.size(); }

 private:
  struct Run {
    Timestamp started_at;
    Duration remaining_at_start;
    bool checkpointed = false;
    Timestamp natural_end;
    Timestamp stop_at = Timestamp::infinite_future();

    [[nodiscard]] Timestamp end() const { return stop_at < natural_end ? stop_at : natural_end; }
  };

  void observe(Timestamp now);

  std::unordered_map<uint64_t, Run> runs_;
  // (end time in ms, id): the event queue, ordered deterministically.
  std::set<std::pair<int64_t, uint64_t>> schedule_;
  Timestamp last_seen_;
};

}  // namespace allot::sim
