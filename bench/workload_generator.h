// WorkloadGenerator: the pending workloads of the scale test, drawn from a
// seeded std::mt19937_64.
//
// Mix per workload: 40% 1 GPU, 20% 2, 15% 4, 15% 8 (one pod each, 12 CPU
// cores and 64Gi per GPU), 10% gangs of 2..8 pods x 8 GPUs (16..64 GPUs);
// maxRuntime (10 minutes to 24 hours) on half of them; a random priority
// class; queued_at uniform over the hour before `now`. Workloads go to the
// regular teams round-robin (100 each at the default size).
//
// Contract: deterministic for (policy, config, seed). Reads the policy only.
#pragma once

#include <cstdint>
#include <vector>

#include "base/time.h"
#include "bench/scale_config.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/snapshot.h"

namespace allot::bench {

class WorkloadGenerator {
 public:
  WorkloadGenerator(const CompiledPolicy& policy, const ScaleConfig& config, Timestamp now);

  // `count` workloads with ids first_id, first_id + 1, ...
  [[nodiscard]] std::vector<PendingWorkload> pending(int32_t count, uint64_t seed,
                                                     uint64_t first_id) const;
  // The preemptor of preemption run `run`: a gang of kUrgentGangPods x 8 GPUs
  // of the highest priority class, for urgent team run % urgent_teams, pinned
  // to flavor (run / urgent_teams) % kFlavorCount.
  [[nodiscard]] PendingWorkload urgent_gang(int32_t run, WorkloadId id) const;

 private:
  const CompiledPolicy* policy_;
  ScaleConfig config_;
  Timestamp now_;
  std::vector<TeamIndex> regular_teams_;
  std::vector<TeamIndex> urgent_teams_;
  std::vector<PriorityClassIndex> classes_;
};

}  // namespace allot::bench
