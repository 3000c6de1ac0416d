#include "service/control/node_service.h"

#include <algorithm>
#include <utility>

#include "service/control/caller_rights.h"
#include "service/control/node_conditions.h"
#include "service/control/pod_lifecycle.h"
#include "service/control/workload_redaction.h"
#include "service/control/workload_transitions.h"

namespace allot {
namespace {

bool runs_on(const LiveWorkload& live, const std::string& node) {
  for (const PodSetStatus& pod_set : live.doc.status.pod_sets) {
    for (const PodAssignment& pod : pod_set.pods) {
      if (pod.node == node) return true;
    }
  }
  return false;
}

// Stops the work on a drained node with its grace period; it is requeued at
// its original position once stopped.
void drain_node(const std::string& name, ServerState& state, Timestamp now, WriteBatch& batch,
                Actions& actions) {
  for (const auto& [id, pointer] : state.workloads.active()) {
    LiveWorkload& live = *pointer;
    if (!holds_quota(live.phase()) || live.run.stopping()) continue;
    if (!runs_on(live, name) || !request_stop(live.run, StopCause::kEvict)) continue;
    const Duration grace = grace_period_of(live, state);
    actions.stops.push_back({id, grace});
    note(live, "Warning", "Draining",
         "node " + name + " is drained; stopping with a grace period of " + grace.to_string() +
             ", then requeued at its original position",
         now, batch);
  }
}

// Other teams' workloads on a node, as the caller may see them (issue 11, item 5).
void hide_unseen_workloads(NodeView& view, const VisibleNamespaces& visible) {
  for (std::string& key : view.workloads) key = redact_workload_key(key, visible);
}

}  // namespace

NodeAllocations node_allocations(const ServerState& state, const std::string* only) {
  NodeAllocations allocations;
  for (const auto& [id, pointer] : state.workloads.active()) {
    const LiveWorkload& live = *pointer;
    if (!holds_quota(live.phase())) continue;
    const std::string key = live.key();
    for (size_t i = 0; i < live.doc.status.pod_sets.size(); ++i) {
      for (const PodAssignment& pod : live.doc.status.pod_sets[i].pods) {
        if (only != nullptr && pod.node != *only) continue;
        NodeAllocation& node = allocations[pod.node];
        node.allocated += live.doc.workload.spec.pod_sets[i].resources;
        if (node.workloads.empty() || node.workloads.back() != key) node.workloads.push_back(key);
      }
    }
  }
  return allocations;
}

NodeView node_view(const ServerState& state, const NodeAllocations& allocations, size_t index) {
  const CompiledNode& compiled = state.policy.compiled()->nodes()[index];
  const Node& node = compiled.node;
  NodeView view;
  view.name = node.name;
  view.pool = node.pool;
  view.flavor = node.flavor;
  view.rack = compiled.rack;
  view.block = compiled.block;
  view.capacity = node.capacity;
  if (auto it = allocations.find(node.name); it != allocations.end()) {
    view.allocated = it->second.allocated;
    view.workloads = it->second.workloads;
  }
  if (auto it = state.nodes.find(node.name); it != state.nodes.end()) {
    view.healthy = it->second.healthy;
    view.cordoned = it->second.cordoned;
    view.reason = it->second.reason;
    view.last_heartbeat = it->second.last_heartbeat;
    view.backend_state = it->second.backend_state;
    view.backend_reason = it->second.backend_reason;
    view.health_history = it->second.health_history;
  }
  return view;
}

Result<NodeView> NodeService::act(const Principal& caller, const std::string& name,
                                  NodeAction action) {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(caller, "update", "nodes", "", name));
  ALLOT_RETURN_IF_ERROR(carry_into_backend(caller, name, action));
  {
    // The writer's end waits until the change is stored and carried out.
    ClusterWriter writer(cluster_);
    const Timestamp now = clock_.now();
    ChangeLock lock(cluster_, writer);
    ServerState& state = cluster_.state();
    const auto& compiled = state.policy.compiled();
    if (!compiled || !compiled->node_by_name(name).valid()) {
      return not_found("node '" + name + "' does not exist");
    }
    NodeState& node = state.nodes[name];
    node.cordoned = action != NodeAction::kUncordon;
    node.auto_cordoned = false;
    node.reason = action == NodeAction::kUncordon ? std::string()
                  : action == NodeAction::kDrain  ? "drained by an operator"
                                                  : "cordoned by an operator";
    WriteBatch batch;
    Actions actions;
    put_node_condition(state, name, batch);
    if (action == NodeAction::kDrain) drain_node(name, state, now, batch, actions);
    lock.queue(std::move(batch), std::move(actions));
  }
  signal_.wake();
  return get(caller, name);
}

Status NodeService::carry_into_backend(const Principal& caller, const std::string& name,
                                       NodeAction action) {
  if (inventory_ == nullptr) return {};
  {
    ReaderLock lock(cluster_.mutex());
    const auto& compiled = cluster_.view().policy.compiled();
    if (!compiled || !compiled->node_by_name(name).valid()) {
      return not_found("node '" + name + "' does not exist");
    }
  }
  Status done =
      action == NodeAction::kUncordon
          ? inventory_->resume(NodeId(name))
          : inventory_->drain(NodeId(name),
                              std::string("allot: ") +
                                  (action == NodeAction::kDrain ? "drained" : "cordoned") + " by " +
                                  caller.subject);
  if (done.ok()) return done;
  return Status(done.code(), "the backend refused; nothing changed: " + done.message(),
                "node " + name);
}

Result<NodePage> NodeService::list(const Principal& caller, const NodeQuery& query) const {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(caller, "list", "nodes", ""));
  NodePage page;
  const CommittedRead read(cluster_);
  const auto& compiled = cluster_.view().policy.compiled();
  if (!compiled || query.after >= compiled->nodes().size()) return page;
  const NodeAllocations allocations = node_allocations(cluster_.view());
  const size_t end = std::min(compiled->nodes().size(), query.after + query.limit);
  page.items.reserve(end - query.after);
  const VisibleNamespaces visible = workload_visibility(cluster_.access(), caller);
  for (size_t i = query.after; i < end; ++i) {
    page.items.push_back(node_view(cluster_.view(), allocations, i));
    hide_unseen_workloads(page.items.back(), visible);
  }
  if (end < compiled->nodes().size()) page.next = end;
  return page;
}

Result<NodeView> NodeService::get(const Principal& caller, const std::string& name) const {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(caller, "get", "nodes", "", name));
  const CommittedRead read(cluster_);
  const auto& compiled = cluster_.view().policy.compiled();
  const NodeIndex index = compiled ? compiled->node_by_name(name) : NodeIndex();
  if (!index.valid()) return not_found("node '" + name + "' does not exist");
  NodeView view =
      node_view(cluster_.view(), node_allocations(cluster_.view(), &name), index.value());
  hide_unseen_workloads(view, workload_visibility(cluster_.access(), caller));
  return view;
}

}  // namespace allot
