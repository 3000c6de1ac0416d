// WorkloadService::report_checkpoint (workload_service.h): POST
// /api/v1/namespaces/{ns}/workloads/{name}/checkpoint.
#include "service/control/workload_checkpoints.h"
#include "service/control/workload_service.h"

namespace allot {

Result<WorkloadView> WorkloadService::report_checkpoint(const Principal& caller,
                                                        const std::string& ns,
                                                        const std::string& name,
                                                        std::optional<Timestamp> at) {
  ALLOT_RETURN_IF_ERROR(
      cluster_.access().authorize(caller, "create", "workloads/checkpoint", ns, name));
  WorkloadView view;
  ClusterWriter writer(cluster_);  // its end waits for the commit, as cancel's
  ChangeLock lock(cluster_, writer);
  LiveWorkload* live = cluster_.state().workloads.find(ns, name);
  if (live == nullptr) {
    return not_found("workload " + ns + "/" + name + " does not exist");
  }
  if (!holds_quota(live->phase())) {
    return Status(ErrorCode::kFailedPrecondition,
                  "workload " + ns + "/" + name + " is not running (phase " +
                      std::string(workload_phase_name(live->phase())) +
                      "): only a running workload reports checkpoints");
  }
  const Timestamp now = clock_.now();
  WriteBatch batch;
  record_checkpoint(*live, at.value_or(now), now, batch);
  view.doc = live->doc;
  lock.queue(std::move(batch), Actions());
  return view;
}

}  // namespace allot
