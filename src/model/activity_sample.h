// ActivitySample: how busy a workload's pods were at one moment, as a backend
// read it (backends/executor.h activity()); what a Space's idleness is
// judged from (scheduler/space_idle.h, docs/spaces.md).
#pragma once

#include <cstdint>
#include <optional>

#include "base/time.h"

namespace allot {

struct ActivitySample {
  int64_t cpu_micros = 0;              // CPU time of the pods' processes so far
  std::optional<Timestamp> heartbeat;  // the heartbeat file's last change, if it exists

  friend bool operator==(const ActivitySample&, const ActivitySample&) = default;
};

}  // namespace allot
