// WorkloadService: the use cases of workloads (docs/api.md): submit, cancel,
// delete, list with filters and paging, get with the scheduler's
// explanation, events and logs.
//
// Contract:
// - create() stores the workload (fsync) before it answers; submits commit
//   concurrently, sharing group commits, and a failed commit changes nothing
//   (kUnavailable). The name is held while the commit runs (kAlreadyExists).
//   The caller's subject is recorded as status.submittedBy: every launch of
//   the workload carries it (executor.h WorkloadLaunch::user).
// - cancel(), resume() and remove() change existing state under the cluster's writer
//   lock and queue their commit with the state still held; they answer once
//   it is stored and the pods were told to stop, without holding any lock
//   meanwhile, so concurrent changes share group commits
//   (cluster_state.h). An answer, a refusal included, reflects only stored
//   state.
// - Reads answer only what is stored (CommittedRead).
// - An InferenceEndpoint is stored as one workload that is never scheduled;
//   its replicas are workloads of their own (endpoint_control.h). Cancelling
//   or deleting it stops them; a manifest may not set the replica labels.
// - Every call checks the caller first (caller_rights.h). Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "model/principal.h"
#include "model/views/workload_view.h"
#include "model/workload.h"
#include "service/control/action_runner.h"
#include "service/control/cluster_state.h"
#include "service/control/endpoint_control.h"
#include "service/control/loop_signal.h"

namespace allot {

class WorkloadService {
 public:
  WorkloadService(ClusterState& cluster, LoopSignal& signal, ActionRunner& actions,
                  const Clock& clock)
      : cluster_(cluster), signal_(signal), actions_(actions), clock_(clock) {}

  // The id the next workload gets; a decoder names unnamed workloads after it
  // ("wl-<id>") before create().
  WorkloadId allocate_id() { return cluster_.allocate_id(); }

  // REQUIRES: id from allocate_id(). Returns the workload as stored.
  Result<StoredWorkload> create(const Principal& caller, const Workload& workload, WorkloadId id);
  Result<WorkloadView> cancel(const Principal& caller, const std::string& ns,
                              const std::string& name);
  // Requeues a Suspended Space at the front of its team's queue
  // (space_lifecycle.h); RBAC `update` on workloads/resume. Stored before it
  // answers, as cancel().
  Result<WorkloadView> resume(const Principal& caller, const std::string& ns,
                              const std::string& name);
  Status remove(const Principal& caller, const std::string& ns, const std::string& name);
  // The workload reports a checkpoint taken at `at` (unset: now; a time to
  // come counts as now): `create` on workloads/checkpoint. Only while it
  // runs (kFailedPrecondition otherwise). Stored before it answers, as
  // cancel(). Defined in checkpoint_report.cc.
  Result<WorkloadView> report_checkpoint(const Principal& caller, const std::string& ns,
                                         const std::string& name, std::optional<Timestamp> at);
  // An InferenceEndpoint's desired replica count (endpoint_control.h): stored
  // with the endpoint; the loop then creates or cancels its replicas.
  // Authorized as `update` on `workloads/scale`. Defined in workload_scale.cc.
  Result<WorkloadView> scale(const Principal& caller, const std::string& ns,
                             const std::string& name, const ScaleRequest& request);

  [[nodiscard]] Result<WorkloadPage> list(const Principal& caller,
                                          const WorkloadQuery& query) const;
  [[nodiscard]] Result<WorkloadView> get(const Principal& caller, const std::string& ns,
                                         const std::string& name) const;
  [[nodiscard]] Result<std::vector<WorkloadEventView>> events(const Principal& caller,
                                                              const std::string& ns,
                                                              const std::string& name) const;
  [[nodiscard]] Result<LogChunk> log(const Principal& caller, const std::string& ns,
                                     const std::string& name, int32_t pod, int64_t offset) const;

 private:
  // The id of ns/name, or kNotFound.
  [[nodiscard]] Result<WorkloadId> id_of(const std::string& ns, const std::string& name) const;

  ClusterState& cluster_;
  LoopSignal& signal_;
  ActionRunner& actions_;
  const Clock& clock_;
};

}  // namespace allot
