// CPU autoscaling of InferenceEndpoints with `scaleOn: cpu` (docs/endpoints.md):
// allotd reads the CPU time of each endpoint's replicas itself, as Kubernetes'
// HorizontalPodAutoscaler reads its pods' CPU use, and feeds the endpoint's
// ReplicaScaler (scheduler/replica_scaling.h) with it.
//
// Contract:
// - due(now): a reading is due every kCpuReadEvery (15 s, the HPA's sync
//   period) and at the first pass.
// - cpu_replicas(state): the replicas of cpu endpoints that run (not
//   stopping), with their endpoint and the CPU their pods request; under a
//   reader lock.
// - read(replicas, executor, now): each replica's CPU time so far
//   (Executor::activity()); no lock held (it reads /proc or cgroup files).
//   A replica the executor cannot read is left out.
// - apply(readings, state, now, batch): under the writer lock, once after
//   each read() with what it read (it forgets the replicas it did not). A replica's
//   use is its CPU time between its previous reading and this one, over the
//   wall time between them and its request, in percent. An endpoint's signal
//   is the mean use of its replicas read twice in a row (a replica read once
//   waits for the next reading); its count of such replicas is the current
//   count of the scaling rule. A desired count that changes is stored with
//   the endpoint and a `Scaled` event that names the CPU use; the loop's next
//   reconcile creates or stops replicas. Readings of replicas that no longer
//   run are forgotten. Endpoints whose replicas request no CPU are not scaled.
// - The scalers are ServerState::endpoint_scalers, the ones the scale route
//   uses: a reading posted by hand and one read here share one scale-down
//   window.
// Not thread-safe: one admission loop calls it.
#pragma once

#include <map>
#include <vector>

#include "backends/executor.h"
#include "base/time.h"
#include "service/control/server_state.h"
#include "store/store.h"

namespace allot {

inline constexpr Duration kCpuReadEvery = Duration::seconds(15);

struct CpuReplica {
  WorkloadId replica;
  WorkloadId endpoint;
  int64_t requested_cpu_millis = 0;  // all its pods together
};

struct CpuReading {
  CpuReplica replica;
  int64_t cpu_micros = 0;  // CPU time of its processes so far
  Timestamp at;
};

class CpuAutoscaler {
 public:
  [[nodiscard]] bool due(Timestamp now) const {
    return !read_once_ || now - last_ >= kCpuReadEvery;
  }
  [[nodiscard]] static std::vector<CpuReplica> cpu_replicas(const ServerState& state);
  std::vector<CpuReading> read(const std::vector<CpuReplica>& replicas, Executor& executor,
                               Timestamp now);
  // Whether a desired count changed.
  bool apply(const std::vector<CpuReading>& readings, ServerState& state, Timestamp now,
             WriteBatch& batch);

 private:
  bool read_once_ = false;
  Timestamp last_;
  std::map<WorkloadId, CpuReading> previous_;  // by replica
};

}  // namespace allot
