// Inference endpoints in allotd (docs/endpoints.md): an endpoint is stored as
// one workload (the parent) that is never scheduled itself, and its replicas
// as workloads of their own that allotd creates and cancels.
//
// Contract:
// - Replica i of endpoint E is the workload "E-<i>" of E's namespace, with
//   E's spec and the labels kReplicaOfLabel = E and kReplicaIndexLabel = i;
//   the scheduler gets its request from make_replica_request() (guaranteed
//   below min, burst above). Users may not set these labels (create refuses).
// - The parent's status.replicas.desired is the truth that is stored: set to
//   min at submit and by the scale route. reconcile_endpoints() makes the
//   replicas match it: it creates "E-<i>" for every i < desired that is
//   missing (when the name is free) and cancels and deletes every live
//   replica i >= desired (the highest first: burst before guaranteed); a
//   replica below desired that ended (a pod failed) is erased, and started
//   again by the next reconcile. A cancelled or deleted parent counts as
//   desired 0; one the policy cannot run gets no new replicas. It runs in the loop, so a
//   restart, a replica that ended or a name that became free converge too.
// - desired_replicas(): the count a scale request asks for. external takes
//   {"replicas": N} with N in [min, max]; queueDepth and cpu take
//   {"signal": value} through the endpoint's ReplicaScaler
//   (scheduler/replica_scaling.h), whose scale-down window lives in memory
//   (a restart starts it afresh). Errors name the field.
// Not thread-safe: callers hold the cluster's writer lock.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "base/result.h"
#include "model/workload.h"
#include "model/workload_status.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/replica_scaling.h"
#include "scheduler/snapshot.h"
#include "service/control/live_workload.h"
#include "service/control/server_state.h"

namespace allot {

inline constexpr const char* kReplicaOfLabel = "allot.dev/replica-of";
inline constexpr const char* kReplicaIndexLabel = "allot.dev/replica";

// What a scale request carries: a replica count (external) or a signal reading.
struct ScaleRequest {
  std::optional<int32_t> replicas;
  std::optional<double> signal;
};

// An InferenceEndpoint that users submitted (not one of its replicas).
bool is_endpoint_parent(const Workload& workload);
// The replica index of a replica workload; nullopt for any other.
std::optional<int32_t> replica_index(const Workload& workload);

// The scheduler's request for a workload: a replica's or its own.
Result<PendingWorkload> workload_request(const CompiledPolicy& policy, const Workload& workload,
                                         WorkloadId id, Timestamp queued_at);

// The replica count a request asks for (see the contract).
Result<int32_t> desired_replicas(const EndpointSpec& spec, const ScaleRequest& request,
                                 int32_t current, Timestamp now, ReplicaScaler& scaler);

// Creates and cancels replicas so that every live endpoint has its desired
// count; changes go to `batch` and `actions`. `next_id` allocates workload ids.
void reconcile_endpoints(ServerState& state, const std::function<WorkloadId()>& next_id,
                         Timestamp now, WriteBatch& batch, Actions& actions);
// The same for one endpoint (REQUIRES: is_endpoint_parent), also once it has
// ended: cancelling or deleting an endpoint stops its replicas at once.
void reconcile_endpoint(ServerState& state, LiveWorkload& endpoint,
                        const std::function<WorkloadId()>& next_id, Timestamp now,
                        WriteBatch& batch, Actions& actions);

// Why an endpoint itself is never scheduled (its `unschedulable`).
inline constexpr const char* kEndpointRunsAsReplicas =
    "an InferenceEndpoint runs as its replicas (<name>-<i>); see status.replicas";

// The endpoint's replicas as they stand: desired (stored), admitted, ready.
ReplicaCounts replica_counts(const WorkloadTable& workloads, const LiveWorkload& endpoint);

}  // namespace allot
