#include "service/control/admission_cycle.h"

#include <algorithm>
#include <bit>
#include <string>
#include <utility>

#include "scheduler/explanation_text.h"
#include "service/control/budget_monitor.h"
#include "service/control/contract_gate.h"
#include "service/control/metering.h"
#include "service/control/workload_checkpoints.h"
#include "service/control/workload_redaction.h"
#include "service/control/workload_transitions.h"

namespace allot {
namespace {

uint64_t gpu_mask(const std::vector<int32_t>& gpus) {
  uint64_t mask = 0;
  for (int32_t gpu : gpus) mask |= uint64_t{1} << gpu;
  return mask;
}

std::vector<int32_t> gpu_list(uint64_t mask) {
  std::vector<int32_t> gpus;
  while (mask != 0) {
    gpus.push_back(std::countr_zero(mask));
    mask &= mask - 1;
  }
  return gpus;
}

// The admitted form of a running workload; false when its flavor or a node is gone.
bool to_admitted(const LiveWorkload& live, const CompiledPolicy& policy, Timestamp now,
                 AdmittedWorkload& out) {
  const WorkloadStatus& status = live.doc.status;
  out.id = live.request.id;
  out.team = live.request.team;
  out.priority_class = live.request.priority_class;
  out.priority = live.request.priority;
  out.queued_at = status.queued_at;
  out.admitted_at = status.admitted_at.value_or(now);
  out.last_checkpoint = last_checkpoint(live, out.admitted_at);
  out.max_runtime = live.request.max_runtime;
  out.flavor = policy.flavor_by_name(status.flavor);
  out.pod_sets = live.request.pod_sets;
  out.terminating = live.run.stopping();
  out.preempted_for = live.run.preempting_for;
  out.running = live.pods_started > 0;
  out.replica_role = live.request.replica_role;
  if (!out.flavor.valid() || status.pod_sets.size() != out.pod_sets.size()) return false;
  for (const PodSetStatus& pod_set : status.pod_sets) {
    PodSetAssignment assignment;
    for (const PodAssignment& pod : pod_set.pods) {
      const NodeIndex node = policy.node_by_name(pod.node);
      if (!node.valid()) return false;
      assignment.pods.push_back({node, gpu_mask(pod.gpus)});
    }
    assignment.count = static_cast<int32_t>(assignment.pods.size());
    out.assignment.push_back(std::move(assignment));
  }
  return true;
}

// The workload's pods stop with `grace`; its run already says why.
void stop_pods(LiveWorkload& live, Duration grace, Actions& actions) {
  actions.stops.push_back({live.id(), grace});
}

void evicted(const Eviction& eviction, LiveWorkload& live, const CompiledPolicy& policy,
             Timestamp now, WriteBatch& batch, Actions& actions) {
  stop_pods(live, Duration(), actions);
  note(live, "Warning", "Evicted",
       "node " + policy.node(eviction.node).node.name +
           " is unhealthy; requeued at its original position",
       now, batch);
}

void preempted(const Preemption& preemption, LiveWorkload& victim, const ServerState& state,
               Duration grace, Timestamp now, WriteBatch& batch, Actions& actions) {
  const LiveWorkload* beneficiary = state.workloads.find(preemption.beneficiary);
  const std::string by = beneficiary ? beneficiary->key() : "another workload";
  victim.doc.status.preempted_by = by;
  // Without a grace period its capacity is free now (the beneficiary may take it in this plan).
  if (victim.run.released) close_allocation(victim, now, batch);
  stop_pods(victim, grace, actions);
  note(victim, "Warning", "Preempting",
       preempted_by_phrase(by) + " (" + std::string(preemption_reason_name(preemption.reason)) +
           "); stopping with a grace period of " + grace.to_string(),
       now, batch);
}

void admitted(const Admission& admission, LiveWorkload& live, const ServerState& state,
              Timestamp now, WriteBatch& batch, Actions& actions) {
  const CompiledPolicy& policy = *state.policy.compiled();
  WorkloadStatus& status = live.doc.status;
  const std::string resume_job = resume_job_of(live);
  const std::optional<Timestamp> resume_since = resume_since_of(live);
  status.flavor = policy.flavor_name(admission.flavor);
  status.pod_sets.clear();
  status.backend.reset();  // the previous run's job; this run's is stored once the backend has it
  live.pods = 0;
  for (size_t i = 0; i < admission.assignment.size(); ++i) {
    PodSetStatus pod_set{live.doc.workload.spec.pod_sets[i].name, {}};
    for (const PodPlacement& pod : admission.assignment[i].pods) {
      pod_set.pods.push_back({policy.node(pod.node).node.name, gpu_list(pod.gpu_mask)});
    }
    live.pods += static_cast<int32_t>(pod_set.pods.size());
    status.pod_sets.push_back(std::move(pod_set));
  }
  live.pods_started = 0;
  live.pods_exited = 0;
  live.pods_all_succeeded = true;
  live.failed_exit_code.reset();
  live.explanation.reset();
  std::string message = "admitted on flavor " + status.flavor;
  if (admission.borrowing) message += ", borrowing from its cohort";
  if (admission.partial) message += ", partially (" + std::to_string(live.pods) + " pods)";
  if (admission.backfill) message += ", as backfill before a reservation";
  enter_phase(live, WorkloadPhase::kAdmitted, "Admitted", std::move(message), now, batch);
  open_allocation(live, admission.usage, admission.borrowed, now, batch);
  actions.launches.push_back(workload_launch(live, checkpoint_folder(state, live)));
  actions.launches.back().resume_job = resume_job;
  actions.launches.back().resume_since = resume_since;
}

// The launch of a pending workload at its promised placement.
WorkloadLaunch promised_launch(const LiveWorkload& live, const Handover& promise,
                               const ServerState& state) {
  const CompiledPolicy& policy = *state.policy.compiled();
  WorkloadLaunch launch = workload_launch(live, checkpoint_folder(state, live));
  launch.flavor = policy.flavor_name(promise.flavor);
  launch.pods.clear();
  const auto& pod_sets = live.doc.workload.spec.pod_sets;
  int32_t index = 0;
  for (size_t i = 0; i < promise.assignment.size() && i < pod_sets.size(); ++i) {
    for (const PodPlacement& pod : promise.assignment[i].pods) {
      launch.pods.push_back({index++, NodeId(policy.node(pod.node).node.name),
                             gpu_list(pod.gpu_mask), pod_sets[i].resources});
    }
  }
  return launch;
}

// Broken promises are taken back; new ones handed to the executor (a kept one
// was handed over when it was made).
void hand_over(const Plan& plan, ServerState& state, Actions& actions) {
  for (const WorkloadId workload : plan.withdrawn_handovers)
    actions.withdrawals.push_back({workload});
  for (const Handover& promise : plan.handovers) {
    const bool kept =
        std::find(state.handovers.begin(), state.handovers.end(), promise) != state.handovers.end();
    const LiveWorkload* live = state.workloads.find(promise.workload);
    // A run to resume is not submitted ahead: its launch takes its job over
    // (named, or looked up since the run's admission).
    if (kept || live == nullptr || waits_to_resume_run(*live)) continue;
    actions.handovers.push_back(
        {promised_launch(*live, promise, state), promise.after, promise.kind});
  }
  state.handovers = plan.handovers;
}

}  // namespace

PendingWorkload pending_request(const LiveWorkload& live) {
  PendingWorkload pending = live.request;
  pending.queued_at = live.doc.status.queued_at;
  pending.preempted_by = live.run.preempted_by;
  return pending;
}

CycleInput build_snapshot(const ServerState& state, Timestamp now) {
  const CompiledPolicy& policy = *state.policy.compiled();
  CycleInput input;
  Snapshot& snapshot = input.snapshot;
  snapshot.now = now;
  snapshot.reservations = state.reservations;
  snapshot.handovers = state.handovers;
  snapshot.nodes.resize(static_cast<size_t>(policy.node_count()));
  for (const auto& [name, node] : state.nodes) {
    const NodeIndex index = policy.node_by_name(name);
    if (index.valid()) snapshot.nodes[index.value()] = {node.healthy, node.cordoned};
  }
  for (const auto& [id, pointer] : state.workloads.active()) {
    const LiveWorkload& live = *pointer;
    if (is_final(live.phase()) || live.run.released || live.run.suspended()) continue;
    if (holds_quota(live.phase())) {
      AdmittedWorkload admitted;
      if (!live.unschedulable.empty() || !to_admitted(live, policy, now, admitted)) {
        input.orphans.push_back(id);
        continue;
      }
      snapshot.admitted.push_back(std::move(admitted));
    } else if (live.unschedulable.empty() && !budget_stop_of(live, state) &&
               !contract_refusal_of(live, state, now)) {
      // A team whose stopAdmission budget is exhausted waits (budget_monitor.h),
      // and so does work no contract in force admits (contract_gate.h).
      snapshot.pending.push_back(pending_request(live));
    }
  }
  return input;
}

void evict_orphans(const std::vector<WorkloadId>& orphans, ServerState& state, Timestamp now,
                   WriteBatch& batch, Actions& actions) {
  for (WorkloadId id : orphans) {
    LiveWorkload* live = state.workloads.find(id);
    if (live == nullptr || !request_stop(live->run, StopCause::kEvict)) continue;
    stop_pods(*live, Duration(), actions);
    note(*live, "Warning", "Evicted",
         "its flavor or nodes are no longer in the policy; requeued at its original position", now,
         batch);
  }
}

void apply_plan(const Plan& plan, ServerState& state, Timestamp now, WriteBatch& batch,
                Actions& actions) {
  const CompiledPolicy& policy = *state.policy.compiled();
  const PlanEffects effects = carry_out(plan, state.workloads);
  for (const StopEffect& stop : effects.stops) {
    LiveWorkload& live = *state.workloads.find(stop.workload);
    if (stop.cause == StopCause::kEvict) {
      evicted(*stop.eviction, live, policy, now, batch, actions);
    } else {
      preempted(*stop.preemption, live, state, stop.grace, now, batch, actions);
    }
  }
  for (const Admission* admission : effects.starts) {
    admitted(*admission, *state.workloads.find(admission->workload), state, now, batch, actions);
  }
  for (const PendingExplanation& explanation : plan.explanations) {
    if (LiveWorkload* live = state.workloads.find(explanation.workload)) {
      live->explanation = explanation;
    }
  }
  hand_over(plan, state, actions);
  state.reservations.clear();
  for (const Reservation& reservation : plan.reservations) {
    state.reservations.push_back({reservation.workload, reservation.nodes, reservation.starts_at,
                                  reservation.consolidation});
  }
}

std::string stale_plan_reason(const Plan& plan, const ServerState& state) {
  const CompiledPolicy& policy = *state.policy.compiled();
  const auto waits = [&](WorkloadId id) {
    const LiveWorkload* live = state.workloads.find(id);
    return live != nullptr && live->run.waiting() && is_waiting(live->phase()) &&
           live->unschedulable.empty();
  };
  for (const Preemption& preemption : plan.preemptions) {
    const LiveWorkload* victim = state.workloads.find(preemption.victim);
    if (victim == nullptr || !victim->run.holds_capacity() || victim->run.stopping()) {
      return "victim " + std::to_string(preemption.victim.value()) + " is stopping or gone";
    }
    if (!waits(preemption.beneficiary)) {
      return "beneficiary " + std::to_string(preemption.beneficiary.value()) + " no longer waits";
    }
  }
  for (const Admission& admission : plan.admissions) {
    if (!waits(admission.workload)) {
      return "workload " + std::to_string(admission.workload.value()) + " no longer waits";
    }
    for (const PodSetAssignment& pod_set : admission.assignment) {
      for (const PodPlacement& pod : pod_set.pods) {
        const std::string& name = policy.node(pod.node).node.name;
        const auto it = state.nodes.find(name);
        if (it != state.nodes.end() && (!it->second.healthy || it->second.cordoned)) {
          return "node " + name + " is no longer schedulable";
        }
      }
    }
  }
  return {};
}

WorkloadLaunch workload_launch(const LiveWorkload& live, const std::string& checkpoint_folder) {
  const Workload& workload = live.doc.workload;
  WorkloadLaunch launch;
  launch.workload = live.id();
  launch.name = workload.meta.name;
  launch.namespace_name = workload.meta.namespace_name;
  launch.team = TeamId(live.doc.status.team);
  launch.user = live.doc.status.submitted_by;
  launch.command = workload.spec.command;
  launch.env = workload.spec.env;
  launch.flavor = live.doc.status.flavor;
  launch.priority_class = workload.spec.priority_class;
  launch.max_runtime = workload.spec.max_runtime;
  add_run_env(live, checkpoint_folder, launch);
  int32_t index = 0;
  for (size_t i = 0; i < live.doc.status.pod_sets.size(); ++i) {
    for (const PodAssignment& placement : live.doc.status.pod_sets[i].pods) {
      launch.pods.push_back(
          {index++, NodeId(placement.node), placement.gpus, workload.spec.pod_sets[i].resources});
    }
  }
  return launch;
}

}  // namespace allot
