#include "scheduler/scheduler.h"

#include "scheduler/scheduling_cycle.h"

namespace allot {

Scheduler::Scheduler(std::shared_ptr<const CompiledPolicy> policy, SchedulerOptions options)
    : policy_(std::move(policy)),
      topology_(std::make_shared<const Topology>(*policy_)),
      options_(options) {}

Plan Scheduler::plan(const Snapshot& snapshot) const {
  SchedulingCycle cycle(*policy_, *topology_, options_, snapshot);
  return cycle.run();
}

Plan Scheduler::plan(const Snapshot& snapshot, const PendingQueues& kept) const {
  if (!kept.matches(*policy_, snapshot.pending)) return plan(snapshot);
  SchedulingCycle cycle(*policy_, *topology_, options_, snapshot, &kept);
  return cycle.run();
}

}  // namespace allot
