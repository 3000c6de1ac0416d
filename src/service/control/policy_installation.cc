#include "service/control/policy_installation.h"

#include <memory>
#include <utility>

#include "scheduler/workload_request.h"
#include "service/control/endpoint_control.h"
#include "service/control/input_error.h"

namespace allot {

bool keeps_every_request(const PolicyState& before, const PolicyState& after) {
  return before.compiled() && after.compiled() &&
         same_workload_requests(*before.compiled(), *after.compiled());
}

void install_policy(ServerState& state, PolicyState policy) {
  // An RBAC change keeps the compiled policy: the scheduler, its
  // reservations and the workloads' requests stay as they are.
  if (state.policy.compiled() == policy.compiled()) {
    state.policy = std::move(policy);
    return;
  }
  const bool keeps = keeps_every_request(state.policy, policy);
  state.policy = std::move(policy);
  state.reservations.clear();
  const auto& compiled = state.policy.compiled();
  state.scheduler =
      compiled ? std::make_shared<const Scheduler>(compiled, state.scheduler_options) : nullptr;
  // A change that keeps every request (a quota, a cohort) leaves the live
  // workloads as they are: with 20,000 of them, recompiling took longer than
  // the rest of the apply together.
  if (keeps) return;
  for (const auto& [id, live] : state.workloads.active()) {
    if (!is_final(live->phase())) compile_request(state.policy, *live);
  }
}

void compile_request(const PolicyState& policy, LiveWorkload& live) {
  const auto& compiled = policy.compiled();
  if (!compiled) {
    live.unschedulable = "no policy has been applied";
    return;
  }
  Result<PendingWorkload> request =
      workload_request(*compiled, live.doc.workload, live.id(), live.doc.status.queued_at);
  if (request.ok()) {
    live.request = std::move(request).value();
    live.unschedulable.clear();
    if (is_endpoint_parent(live.doc.workload)) live.unschedulable = kEndpointRunsAsReplicas;
  } else {
    live.unschedulable = "the current policy cannot run it: " + request.status().message();
  }
}

Result<LiveWorkload> new_workload(const PolicyState& policy, const Workload& workload,
                                  WorkloadId id, Timestamp now, std::string submitted_by) {
  const auto& compiled = policy.compiled();
  if (!compiled) {
    return invalid_argument("no team owns namespace '" + workload.meta.namespace_name +
                                "': no policy has been applied yet",
                            "metadata.namespace");
  }
  if (workload.spec.command.empty()) {
    return invalid_argument("a workload needs a command (spec.command)", "spec.command");
  }
  Result<PendingWorkload> request = workload_request(*compiled, workload, id, now);
  if (!request.ok()) return as_input_error(request.status());
  LiveWorkload live;
  live.doc.uid = id;
  live.doc.workload = workload;
  live.doc.status.team = compiled->team(request->team).name;
  live.doc.status.submitted_by = std::move(submitted_by);
  live.doc.status.created_at = now;
  live.doc.status.queued_at = now;
  live.doc.status.reason = "Submitted";
  live.doc.status.message = "waiting for admission";
  live.request = std::move(request).value();
  if (is_endpoint_parent(workload)) {
    live.unschedulable = kEndpointRunsAsReplicas;
    live.doc.status.replicas = ReplicaCounts{workload.spec.endpoint->min_replicas, 0, 0};
  }
  return live;
}

}  // namespace allot
