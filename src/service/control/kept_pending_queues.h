// KeptPendingQueues: the admission loop's team queues and facts kept between
// its cycles (scheduler/pending_queues.h), so that a cycle over a deep
// backlog brings them up to date instead of building them again.
//
// Contract:
// - refresh(scheduler, pending) returns queues that equal
//   PendingQueues(scheduler->policy(), pending), for Scheduler::plan(snapshot,
//   kept) to plan from (the same plan as plan(snapshot)). They describe the
//   pending vector of the last refresh until the next one: a plan retried on
//   a newer snapshot refreshes them again first.
// - What changed is worked out here, not reported by whoever changed a
//   workload: `pending` (kept sorted by id, as build_snapshot() makes it) is
//   diffed against the ids of the kept facts, and a workload is touched when
//   it entered, left, or its facts (pending_facts_of(), all the queues and
//   facts depend on) differ from the kept ones. Unsorted input is rebuilt.
// - Another scheduler (a policy change, or the same policy installed again)
//   rebuilds them. The scheduler of the last refresh is held, so that its
//   policy cannot be freed and another allocated at its address unseen.
// Not thread-safe: one owner (the loop's thread) refreshes and plans.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "scheduler/pending_queues.h"
#include "scheduler/scheduler.h"
#include "scheduler/snapshot.h"

namespace allot {

class KeptPendingQueues {
 public:
  // REQUIRES: scheduler is not null.
  const PendingQueues& refresh(const std::shared_ptr<const Scheduler>& scheduler,
                               const std::vector<PendingWorkload>& pending);

  [[nodiscard]] const PendingQueues& queues() const { return queues_; }
  // Refreshes that built the queues from scratch (another scheduler,
  // unsorted input, or too many changes) and those that updated them.
  [[nodiscard]] int64_t rebuilds() const { return rebuilds_; }
  [[nodiscard]] int64_t updates() const { return updates_; }

 private:
  // The ids that entered, left or changed since the last refresh; none when
  // they are so many that a rebuild is no dearer.
  [[nodiscard]] std::optional<std::vector<WorkloadId>> touched_by(
      const CompiledPolicy& policy, const std::vector<PendingWorkload>& pending) const;

  std::shared_ptr<const Scheduler> scheduler_;  // of the last refresh; held
  PendingQueues queues_;
  int64_t rebuilds_ = 0;
  int64_t updates_ = 0;
};

}  // namespace allot
