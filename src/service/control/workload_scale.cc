// WorkloadService::scale(): an InferenceEndpoint's desired replica count
// (workload_service.h, endpoint_control.h).
#include <string>
#include <utility>

#include "service/control/endpoint_control.h"
#include "service/control/workload_service.h"
#include "service/control/workload_transitions.h"

namespace allot {

Result<WorkloadView> WorkloadService::scale(const Principal& caller, const std::string& ns,
                                            const std::string& name, const ScaleRequest& request) {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(caller, "update", "workloads/scale", ns, name));
  const Timestamp now = clock_.now();
  WorkloadView view;
  {
    ClusterWriter writer(cluster_);  // its end waits for the commit, as cancel's
    ChangeLock lock(cluster_, writer);
    ServerState& state = cluster_.state();
    LiveWorkload* live = state.workloads.find(ns, name);
    if (live == nullptr) return not_found("workload " + ns + "/" + name + " does not exist");
    if (!is_endpoint_parent(live->doc.workload)) {
      return failed_precondition("workload " + ns + "/" + name + " is not an InferenceEndpoint",
                                 "spec.kind");
    }
    if (is_final(live->phase()) || live->doc.status.deleting) {
      return failed_precondition("endpoint " + ns + "/" + name + " has ended");
    }
    const EndpointSpec& spec = *live->doc.workload.spec.endpoint;
    ReplicaCounts& replicas = live->doc.status.replicas.emplace(
        live->doc.status.replicas.value_or(ReplicaCounts{spec.min_replicas, 0, 0}));
    auto scaler = state.endpoint_scalers.try_emplace(live->id(), spec).first;
    ALLOT_ASSIGN_OR_RETURN(const int32_t desired,
                           desired_replicas(spec, request, replicas.desired, now, scaler->second));
    WriteBatch batch;
    if (desired != replicas.desired) {
      const std::string message =
          "desired replicas " + std::to_string(replicas.desired) + " -> " + std::to_string(desired);
      replicas.desired = desired;
      note(*live, "Normal", "Scaled", message, now, batch);
    }
    view.doc = live->doc;
    view.doc.status.replicas = replica_counts(state.workloads, *live);
    lock.queue(std::move(batch), Actions{});
  }
  signal_.wake();
  return view;
}

}  // namespace allot
