// Checkpoint progress: how much of a run's work a workload keeps when the run
// is stopped (preempted, or its node failed), as the simulator models it
// (spec.checkpoint.intervalSeconds, model/workload.h).
//
// Contract: pure functions of durations. A workload without checkpoints keeps
// nothing; one that checkpoints continuously (no interval) keeps all of it;
// one that checkpoints every `interval` keeps the last whole multiple of the
// interval it reached. Negative progress counts as none.
#pragma once

#include <optional>

#include "base/time.h"

namespace allot {

struct CheckpointModel {
  bool checkpoints = false;
  std::optional<Duration> interval;  // unset: continuously; else > 0

  // What a run that made `progress` keeps when it is stopped.
  [[nodiscard]] Duration kept(Duration progress) const {
    if (!checkpoints || progress <= Duration()) return Duration();
    if (!interval || *interval <= Duration()) return progress;
    return Duration::millis(progress.ms() / interval->ms() * interval->ms());
  }
  // What such a run throws away.
  [[nodiscard]] Duration lost(Duration progress) const {
    return progress <= Duration() ? Duration() : progress - kept(progress);
  }

  friend bool operator==(const CheckpointModel&, const CheckpointModel&) = default;
};

}  // namespace allot
