#include "scheduler/space_idle.h"

#include <algorithm>

namespace allot {

SpaceActivity start_activity(Timestamp now) { return {now, std::nullopt}; }

void observe_activity(SpaceActivity& activity, const ActivitySample& sample, Timestamp now) {
  if (activity.cpu_micros && sample.cpu_micros - *activity.cpu_micros > kActiveCpuThresholdMicros) {
    activity.last_active = std::max(activity.last_active, now);
  }
  // The baseline follows the CPU time in any case: slow spinning never adds up.
  activity.cpu_micros = sample.cpu_micros;
  if (sample.heartbeat) {
    activity.last_active = std::max(activity.last_active, std::min(*sample.heartbeat, now));
  }
}

Timestamp idle_deadline(const SpaceActivity& activity, Duration timeout) {
  return activity.last_active + timeout;
}

bool is_idle(const SpaceActivity& activity, Duration timeout, Timestamp now) {
  return now >= idle_deadline(activity, timeout);
}

Timestamp resumed_queue_position(Timestamp own, std::span<const Timestamp> team_waiting) {
  Timestamp position = own;
  for (const Timestamp other : team_waiting) {
    if (other <= position) position = other - Duration::millis(1);
  }
  return position;
}

}  // namespace allot
