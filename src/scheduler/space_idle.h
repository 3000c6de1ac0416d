// Space idleness: when an interactive Space (spec.kind: Space) counts as idle,
// and where a resumed one goes in its team's queue (docs/spaces.md). Shared by
// the simulator and allotd, which read activity their own way (a virtual
// executor from the scenario, the local executor from the pod) and judge it
// here.
//
// Contract:
// - An ActivitySample is what a backend read of a running space at one
//   moment: the CPU time its processes have used so far, and the last time a
//   heartbeat file was touched (if any).
// - observe_activity() folds a sample into the space's SpaceActivity: the
//   space was active at `now` when its CPU time grew by more than
//   kActiveCpuThreshold since the last sample, and at the heartbeat's time
//   when that is later than what it knew (a heartbeat from the future counts
//   as now). The first sample of a run only sets the CPU baseline; the run's
//   start counts as activity (start_activity()).
// - idle_deadline() = last activity + timeout; is_idle() is now >= that.
// - resumed_queue_position(): the queued_at that puts a resumed space first
//   among its team's waiting workloads of its priority: one millisecond
//   before the earliest of theirs, or its own queued_at when that is already
//   earlier. Higher priorities still go first (the team order is priority,
//   then queued_at, then id: team_queues.h).
// Pure: no I/O, no clock (`now` is given).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "base/time.h"
#include "model/activity_sample.h"

namespace allot {

// CPU time above this between two samples is activity (a shell prompt that
// wakes now and then uses less; a notebook kernel at work uses more).
inline constexpr int64_t kActiveCpuThresholdMicros = 50'000;

struct SpaceActivity {
  Timestamp last_active;
  std::optional<int64_t> cpu_micros;  // of the last sample of this run; none yet
};

// The run started (or resumed) at `now`: counts as activity.
SpaceActivity start_activity(Timestamp now);

void observe_activity(SpaceActivity& activity, const ActivitySample& sample, Timestamp now);

[[nodiscard]] Timestamp idle_deadline(const SpaceActivity& activity, Duration timeout);
[[nodiscard]] bool is_idle(const SpaceActivity& activity, Duration timeout, Timestamp now);

// `team_waiting`: queued_at of the team's waiting workloads at the space's
// priority (the space itself not among them).
[[nodiscard]] Timestamp resumed_queue_position(Timestamp own,
                                               std::span<const Timestamp> team_waiting);

}  // namespace allot
