// PriorityClass: how important a workload is, and how it may be preempted.
#pragma once

#include <cstdint>

#include "base/time.h"
#include "model/object_meta.h"

namespace allot {

enum class PreemptionPolicy { kPreemptLowerPriority, kNever };

struct PriorityClass {
  ObjectMeta meta;
  int32_t value = 0;
  PreemptionPolicy preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  Duration min_runtime;                                      // no preemption before this
  Duration preemption_grace_period = Duration::seconds(30);  // time to checkpoint

  friend bool operator==(const PriorityClass&, const PriorityClass&) = default;
};

}  // namespace allot
