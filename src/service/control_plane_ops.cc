// ControlPlane, part 3: changes of existing state asked by users: cancel,
// delete, node operations, policy deletes.
#include <utility>

#include "service/control_plane.h"
#include "service/pod_lifecycle.h"
#include "service/workload_transitions.h"

namespace allot {

const LiveWorkload* ControlPlane::find_locked(const std::string& ns,
                                              const std::string& name) const {
  return state_.workloads.find(ns, name);
}

Result<nlohmann::json> ControlPlane::cancel_workload(const std::string& ns,
                                                     const std::string& name) {
  Actions actions;
  nlohmann::json view;
  {
    std::lock_guard writer(writer_mu_);
    WriteBatch batch;
    {
      auto lock = lock_for_change();
      LiveWorkload* live = state_.workloads.find(ns, name);
      if (live == nullptr) return not_found("workload " + ns + "/" + name + " does not exist");
      ALLOT_RETURN_IF_ERROR(cancel_workload_in(*live, batch, actions));
      view = workload_to_json(live->doc);
    }
    commit_or_die(std::move(batch));
  }
  carry_out(std::move(actions));
  wake();
  return view;
}

Status ControlPlane::cancel_workload_in(LiveWorkload& live, WriteBatch& batch, Actions& actions) {
  return allot::cancel_workload(live, state_, clock_.now(), batch, actions);
}

Status ControlPlane::delete_workload(const std::string& ns, const std::string& name) {
  Actions actions;
  {
    std::lock_guard writer(writer_mu_);
    WriteBatch batch;
    {
      auto lock = lock_for_change();
      LiveWorkload* live = state_.workloads.find(ns, name);
      if (live == nullptr) return not_found("workload " + ns + "/" + name + " does not exist");
      const uint64_t uid = live->uid();
      if (!is_final(live->phase())) {
        ALLOT_RETURN_IF_ERROR(cancel_workload_in(*live, batch, actions));
      }
      erase_when_stopped_.push_back(uid);
      erase_finished_deletes(batch);
    }
    commit_or_die(std::move(batch));
  }
  carry_out(std::move(actions));
  wake();
  return {};
}

Status ControlPlane::delete_object(const std::string& kind, const std::string& name) {
  std::lock_guard apply_lock(apply_mu_);
  std::lock_guard writer(writer_mu_);
  PolicyState next;
  {
    std::shared_lock lock(mu_);
    ALLOT_ASSIGN_OR_RETURN(next, state_.policy.without({kind, name}));
    if (kind == "Team") {
      for (const auto& [uid, live] : state_.workloads.active()) {
        if (!is_final(live->phase()) && live->doc.status.team == name) {
          return failed_precondition("team '" + name + "' still has unfinished workloads (" +
                                     live->key() + "); cancel them first");
        }
      }
    }
  }
  WriteBatch batch;
  batch.delete_objects.push_back({kind, name});
  const Status committed = store_.commit(std::move(batch));
  if (!committed.ok()) {
    return Status(ErrorCode::kUnavailable, "nothing was deleted: " + committed.message());
  }
  {
    std::unique_lock lock(mu_);
    install_policy(std::move(next));
  }
  wake();
  return {};
}

Result<nlohmann::json> ControlPlane::node_action(const std::string& name, NodeAction action) {
  Actions actions;
  {
    std::lock_guard writer(writer_mu_);
    WriteBatch batch;
    const Timestamp now = clock_.now();
    {
      auto lock = lock_for_change();
      const auto& compiled = state_.policy.compiled();
      if (!compiled || !compiled->node_by_name(name).valid()) {
        return not_found("node '" + name + "' does not exist");
      }
      NodeState& node = state_.nodes[name];
      node.cordoned = action != NodeAction::kUncordon;
      node.auto_cordoned = false;
      node.reason = action == NodeAction::kUncordon ? std::string()
                    : action == NodeAction::kDrain  ? "drained by an operator"
                                                    : "cordoned by an operator";
      put_node_condition(name, batch);
      if (action == NodeAction::kDrain) drain_node(name, now, batch, actions);
    }
    commit_or_die(std::move(batch));
  }
  carry_out(std::move(actions));
  wake();
  return get_node(name);
}

void ControlPlane::drain_node(const std::string& name, Timestamp now, WriteBatch& batch,
                              Actions& actions) {
  for (const auto& [uid, pointer] : state_.workloads.active()) {
    LiveWorkload& live = *pointer;
    if (!holds_quota(live.phase()) || live.stop != StopIntent::kNone) continue;
    bool on_node = false;
    for (const PodSetStatus& pod_set : live.doc.status.pod_sets) {
      for (const PodAssignment& pod : pod_set.pods) on_node = on_node || pod.node == name;
    }
    if (!on_node) continue;
    const Duration grace = grace_period_of(live, state_);
    live.stop = StopIntent::kEvict;
    live.doc.status.stopping = true;
    actions.stops.push_back({uid, grace});
    note(live, "Warning", "Draining",
         "node " + name + " is drained; stopping with a grace period of " + grace.to_string() +
             ", then requeued at its original position",
         now, batch);
  }
}

}  // namespace allot
