#include "service/control/endpoint_control.h"

#include <charconv>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/endpoint_replicas.h"
#include "scheduler/workload_request.h"
#include "service/control/pod_lifecycle.h"
#include "service/control/policy_installation.h"
#include "service/control/workload_transitions.h"

namespace allot {
namespace {

bool is_endpoint(const Workload& workload) {
  return workload.spec.kind == WorkloadKind::kInferenceEndpoint &&
         workload.spec.endpoint.has_value();
}

std::string replica_name(const std::string& endpoint, int32_t index) {
  return endpoint + "-" + std::to_string(index);
}

// The live replica `index` of `endpoint`, or null (a workload of that name
// that is not its replica does not count).
LiveWorkload* find_replica(WorkloadTable& workloads, const LiveWorkload& endpoint, int32_t index) {
  const ObjectMeta& meta = endpoint.doc.workload.meta;
  LiveWorkload* live = workloads.find(meta.namespace_name, replica_name(meta.name, index));
  if (live == nullptr || replica_index(live->doc.workload) != index) return nullptr;
  const auto of = live->doc.workload.meta.labels.find(kReplicaOfLabel);
  return of != live->doc.workload.meta.labels.end() && of->second == meta.name ? live : nullptr;
}

Workload replica_workload(const Workload& endpoint, int32_t index) {
  Workload replica = endpoint;
  replica.meta.name = replica_name(endpoint.meta.name, index);
  replica.meta.labels[kReplicaOfLabel] = endpoint.meta.name;
  replica.meta.labels[kReplicaIndexLabel] = std::to_string(index);
  return replica;
}

void start_replica(ServerState& state, const LiveWorkload& endpoint, int32_t index, WorkloadId id,
                   Timestamp now, WriteBatch& batch) {
  const Workload replica = replica_workload(endpoint.doc.workload, index);
  Result<LiveWorkload> live =
      new_workload(state.policy, replica, id, now, endpoint.doc.status.submitted_by);
  if (!live.ok()) return;  // the policy no longer runs it: the endpoint says so itself
  enter_phase(*live, WorkloadPhase::kPending, "Submitted",
              "replica " + std::to_string(index) + " of " + endpoint.key(), now, batch);
  state.workloads.insert(std::move(live).value());
}

void stop_replica(ServerState& state, LiveWorkload& replica, Timestamp now, WriteBatch& batch,
                  Actions& actions) {
  if (replica.doc.status.deleting) return;
  if (!is_final(replica.phase())) {
    if (!cancel_workload(replica, state, now, batch, actions).ok()) return;
  }
  replica.doc.status.deleting = true;
  store_record(replica, batch);
  state.erase_when_stopped.push_back(replica.id());
}

}  // namespace

void reconcile_endpoint(ServerState& state, LiveWorkload& endpoint,
                        const std::function<WorkloadId()>& next_id, Timestamp now,
                        WriteBatch& batch, Actions& actions) {
  const EndpointSpec& spec = *endpoint.doc.workload.spec.endpoint;
  const bool ended = is_final(endpoint.phase()) || endpoint.doc.status.deleting;
  const int32_t desired =
      ended || !endpoint.doc.status.replicas ? 0 : endpoint.doc.status.replicas->desired;
  const ObjectMeta& meta = endpoint.doc.workload.meta;
  // The highest first, so that burst replicas go before guaranteed ones.
  for (int32_t i = spec.max_replicas - 1; i >= desired; --i) {
    if (LiveWorkload* replica = find_replica(state.workloads, endpoint, i)) {
      stop_replica(state, *replica, now, batch, actions);
    }
  }
  // A policy that cannot run the endpoint cannot run its replicas either.
  if (endpoint.unschedulable != kEndpointRunsAsReplicas) return;
  for (int32_t i = 0; i < desired && i < spec.max_replicas; ++i) {
    LiveWorkload* replica = find_replica(state.workloads, endpoint, i);
    // A replica that ended (a pod failed, maxRuntime) is replaced: erased
    // now, started again by the next reconcile once its name is free.
    if (replica != nullptr && is_final(replica->phase())) {
      stop_replica(state, *replica, now, batch, actions);
      continue;
    }
    const bool taken =
        state.workloads.name_taken(meta.namespace_name + "/" + replica_name(meta.name, i));
    if (!taken) start_replica(state, endpoint, i, next_id(), now, batch);
  }
}

bool is_endpoint_parent(const Workload& workload) {
  return is_endpoint(workload) && !workload.meta.labels.contains(kReplicaOfLabel);
}

std::optional<int32_t> replica_index(const Workload& workload) {
  if (!is_endpoint(workload) || !workload.meta.labels.contains(kReplicaOfLabel)) {
    return std::nullopt;
  }
  const auto it = workload.meta.labels.find(kReplicaIndexLabel);
  if (it == workload.meta.labels.end()) return std::nullopt;
  int32_t index = -1;
  const std::string& text = it->second;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), index);
  if (ec != std::errc() || end != text.data() + text.size() || index < 0) return std::nullopt;
  return index;
}

Result<PendingWorkload> workload_request(const CompiledPolicy& policy, const Workload& workload,
                                         WorkloadId id, Timestamp queued_at) {
  if (const std::optional<int32_t> index = replica_index(workload)) {
    return make_replica_request(policy, workload, *index, id, queued_at);
  }
  return make_pending_workload(policy, workload, id, queued_at);
}

Result<int32_t> desired_replicas(const EndpointSpec& spec, const ScaleRequest& request,
                                 int32_t current, Timestamp now, ReplicaScaler& scaler) {
  if (spec.scale_on == ScaleSignal::kExternal) {
    if (request.signal) {
      return invalid_argument("scaleOn: external takes replicas, not a signal", "signal");
    }
    if (!request.replicas) return invalid_argument("replicas is required", "replicas");
    if (*request.replicas < spec.min_replicas || *request.replicas > spec.max_replicas) {
      return invalid_argument("replicas must lie within [" + std::to_string(spec.min_replicas) +
                                  ", " + std::to_string(spec.max_replicas) + "]",
                              "replicas");
    }
    return scaler.observe(*request.replicas, now);
  }
  if (request.replicas) {
    return invalid_argument("this endpoint scales on its signal; send signal, not replicas",
                            "replicas");
  }
  if (!request.signal || !std::isfinite(*request.signal) || *request.signal < 0) {
    return invalid_argument("signal must be a number of at least 0", "signal");
  }
  return scaler.update(*request.signal, current, now);
}

void reconcile_endpoints(ServerState& state, const std::function<WorkloadId()>& next_id,
                         Timestamp now, WriteBatch& batch, Actions& actions) {
  std::vector<WorkloadId> endpoints;
  for (const auto& [id, live] : state.workloads.active()) {
    if (is_endpoint_parent(live->doc.workload)) endpoints.push_back(id);
  }
  for (WorkloadId id : endpoints) {
    if (LiveWorkload* endpoint = state.workloads.find(id)) {
      reconcile_endpoint(state, *endpoint, next_id, now, batch, actions);
    }
  }
  erase_deleted_workloads(state, batch);
}

ReplicaCounts replica_counts(const WorkloadTable& workloads, const LiveWorkload& endpoint) {
  ReplicaCounts counts;
  if (endpoint.doc.status.replicas) counts.desired = endpoint.doc.status.replicas->desired;
  const ObjectMeta& meta = endpoint.doc.workload.meta;
  for (int32_t i = 0; i < endpoint.doc.workload.spec.endpoint->max_replicas; ++i) {
    const LiveWorkload* live = workloads.find(meta.namespace_name, replica_name(meta.name, i));
    if (live == nullptr || replica_index(live->doc.workload) != i) continue;
    if (holds_quota(live->phase()) && !live->run.stopping()) ++counts.admitted;
    if (live->phase() == WorkloadPhase::kRunning && !live->run.stopping()) ++counts.ready;
  }
  return counts;
}

}  // namespace allot
