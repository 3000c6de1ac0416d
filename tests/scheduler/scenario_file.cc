#include "scenario_file.h"

#include <fstream>
#include <sstream>

#include "api/manifest_parser.h"
#include "model/node_inventory.h"
#include "scheduler/endpoint_replicas.h"
#include "scheduler/scheduler.h"
#include "scheduler/workload_request.h"

namespace allot::testing {
namespace {

std::string key_of(const YAML::Node& entry) {
  return entry["namespace"].as<std::string>() + "/" + entry["name"].as<std::string>();
}

Duration duration_or(const YAML::Node& node, Duration fallback) {
  if (!node) return fallback;
  return parse_duration(node.as<std::string>()).value();
}

// A Workload manifest for one scenario entry, so that the real parser reads it.
YAML::Node workload_manifest(const YAML::Node& entry) {
  YAML::Node doc;
  doc["apiVersion"] = "allot/v1";
  doc["kind"] = "Workload";
  doc["metadata"]["name"] = entry["name"];
  doc["metadata"]["namespace"] = entry["namespace"];
  if (entry["priorityClass"]) doc["spec"]["priorityClass"] = entry["priorityClass"];
  if (entry["maxRuntimeSeconds"]) doc["spec"]["maxRuntimeSeconds"] = entry["maxRuntimeSeconds"];
  doc["spec"]["podSets"] = entry["podSets"];
  // An InferenceEndpoint's replica: kind, replicas, and `replica: i` (its index).
  for (const char* key : {"kind", "replicas", "scaleOn", "target"}) {
    if (entry[key]) doc["spec"][key] = entry[key];
  }
  return doc;
}

// The request of one entry: an endpoint's replica when it names `replica`.
Result<PendingWorkload> request_of(const CompiledPolicy& policy, const Workload& workload,
                                   const YAML::Node& entry, WorkloadId id, Timestamp at) {
  if (entry["replica"]) {
    return make_replica_request(policy, workload, entry["replica"].as<int32_t>(), id, at);
  }
  return make_pending_workload(policy, workload, id, at);
}

Result<std::vector<Workload>> parse_entries(const YAML::Node& entries) {
  YAML::Emitter out;
  for (const auto& entry : entries) out << workload_manifest(entry);
  std::string text = out.c_str();
  if (entries.size() == 0) return std::vector<Workload>{};
  ALLOT_ASSIGN_OR_RETURN(ManifestBundle bundle, parse_manifests(text, "scenario workloads"));
  return bundle.workloads;
}

// Places a running workload on the named nodes, lowest free GPUs first.
Result<AdmittedWorkload> pin_running(const CompiledPolicy& policy, const PendingWorkload& p,
                                     const YAML::Node& nodes, const Snapshot& so_far,
                                     Timestamp started) {
  std::vector<uint64_t> used(policy.node_count(), 0);
  for (const AdmittedWorkload& a : so_far.admitted) {
    for (const auto& set : a.assignment) {
      for (const auto& pod : set.pods) used[pod.node.value()] |= pod.gpu_mask;
    }
  }
  std::vector<PodSetAssignment> assignment(p.pod_sets.size());
  size_t next = 0;
  FlavorIndex flavor;
  for (size_t s = 0; s < p.pod_sets.size(); ++s) {
    for (int32_t pod = 0; pod < p.pod_sets[s].count; ++pod, ++next) {
      if (next >= nodes.size())
        return invalid_argument("fewer nodes than pods for " + std::to_string(p.id.value()));
      const NodeIndex node = policy.node_by_name(nodes[next].as<std::string>());
      if (!node.valid()) return not_found("unknown node " + nodes[next].as<std::string>());
      flavor = policy.node(node).flavor;
      uint64_t mask = 0;
      for (int64_t g = 0, bit = 0; g < p.pod_sets[s].per_pod.gpu(); ++bit) {
        if ((used[node.value()] & (uint64_t{1} << bit)) == 0) {
          mask |= uint64_t{1} << bit;
          ++g;
        }
      }
      used[node.value()] |= mask;
      assignment[s].pods.push_back({node, mask});
      ++assignment[s].count;
    }
  }
  AdmittedWorkload a = admitted_from(p, flavor, std::move(assignment), started);
  return a;
}

// Lets the scheduler place a running workload, as it would have when it started.
Result<AdmittedWorkload> place_running(const Scheduler& scheduler, const PendingWorkload& p,
                                       const Snapshot& so_far, Timestamp started) {
  Snapshot setup;
  setup.now = started;
  setup.nodes = so_far.nodes;
  for (auto& node : setup.nodes) node = NodeCondition{};
  setup.admitted = so_far.admitted;
  setup.pending = {p};
  Plan plan = scheduler.plan(setup);
  if (plan.admissions.size() != 1) {
    return failed_precondition("setup: running workload " + std::to_string(p.id.value()) +
                               " does not fit the cluster");
  }
  AdmittedWorkload a =
      admitted_from(p, plan.admissions[0].flavor, plan.admissions[0].assignment, started);
  return a;
}

Status add_running(LoadedScenario& out, const Scheduler& scheduler, const YAML::Node& running,
                   uint64_t* next_id) {
  ALLOT_ASSIGN_OR_RETURN(std::vector<Workload> workloads, parse_entries(running));
  for (size_t i = 0; i < workloads.size(); ++i) {
    const YAML::Node& entry = running[i];
    const Timestamp started = Timestamp::epoch() + duration_or(entry["startedAt"], Duration());
    const WorkloadId id(++*next_id);
    ALLOT_ASSIGN_OR_RETURN(PendingWorkload p,
                           request_of(*out.policy, workloads[i], entry, id, started));
    Result<AdmittedWorkload> admitted =
        entry["nodes"] ? pin_running(*out.policy, p, entry["nodes"], out.snapshot, started)
                       : place_running(scheduler, p, out.snapshot, started);
    if (!admitted.ok()) return admitted.status();
    AdmittedWorkload a = std::move(admitted).value();
    a.last_checkpoint =
        Timestamp::epoch() + duration_or(entry["checkpointAt"], started - Timestamp::epoch());
    a.terminating = entry["terminating"] && entry["terminating"].as<bool>();
    a.running = !(entry["notStarted"] && entry["notStarted"].as<bool>());
    out.names[id.value()] = key_of(entry);
    out.snapshot.admitted.push_back(std::move(a));
  }
  return {};
}

WorkloadId id_by_name(const LoadedScenario& s, const std::string& name) {
  for (const auto& [id, n] : s.names) {
    if (n == name) return WorkloadId(id);
  }
  return WorkloadId::invalid();
}

Status add_pending(LoadedScenario& out, const YAML::Node& pending, uint64_t* next_id) {
  ALLOT_ASSIGN_OR_RETURN(std::vector<Workload> workloads, parse_entries(pending));
  for (size_t i = 0; i < workloads.size(); ++i) {
    const YAML::Node& entry = pending[i];
    const Timestamp queued = Timestamp::epoch() + duration_or(entry["queuedAt"], Duration());
    const WorkloadId id(++*next_id);
    ALLOT_ASSIGN_OR_RETURN(PendingWorkload p,
                           request_of(*out.policy, workloads[i], entry, id, queued));
    out.names[id.value()] = key_of(entry);
    if (entry["preemptedBy"])
      p.preempted_by = id_by_name(out, entry["preemptedBy"].as<std::string>());
    out.snapshot.pending.push_back(std::move(p));
  }
  return {};
}

void link_terminating(LoadedScenario& out, const YAML::Node& running) {
  for (size_t i = 0; i < running.size(); ++i) {
    if (running[i]["preemptedFor"]) {
      out.snapshot.admitted[i].preempted_for =
          id_by_name(out, running[i]["preemptedFor"].as<std::string>());
    }
  }
}

// The previous cycle's reservations: {workload, nodes, startsAt}.
Status add_reservations(LoadedScenario& out, const YAML::Node& reservations) {
  for (const auto& entry : reservations) {
    HeldReservation held;
    held.workload = id_by_name(out, entry["workload"].as<std::string>());
    if (!held.workload.valid()) {
      return not_found("reservation for unknown workload " + entry["workload"].as<std::string>());
    }
    for (const auto& name : entry["nodes"]) {
      const NodeIndex node = out.policy->node_by_name(name.as<std::string>());
      if (!node.valid()) return not_found("unknown node " + name.as<std::string>());
      held.nodes.push_back(node);
    }
    // `startsAt: drain`: a drain, whose start is unknown (scheduler/cycle_drains.cc);
    // `startsAt: consolidation`: a consolidation's hold (scheduler/cycle_consolidation.cc).
    const std::string starts = entry["startsAt"] ? entry["startsAt"].as<std::string>() : "";
    held.consolidation = starts == "consolidation";
    held.starts_at = starts == "drain" || held.consolidation
                         ? Timestamp::infinite_future()
                         : Timestamp::epoch() + duration_or(entry["startsAt"], Duration());
    out.snapshot.reservations.push_back(std::move(held));
  }
  return {};
}

// The previous cycle's handovers: {workload, after: [...], node, gpus: [...], kind?} (one pod;
// kind: reclaim, the default, or turnover).
Status add_handovers(LoadedScenario& out, const YAML::Node& handovers) {
  for (const auto& entry : handovers) {
    Handover held;
    held.workload = id_by_name(out, entry["workload"].as<std::string>());
    if (!held.workload.valid()) {
      return not_found("handover for unknown workload " + entry["workload"].as<std::string>());
    }
    for (const auto& victim : entry["after"]) {
      held.after.push_back(id_by_name(out, victim.as<std::string>()));
    }
    const NodeIndex node = out.policy->node_by_name(entry["node"].as<std::string>());
    if (!node.valid()) return not_found("unknown node " + entry["node"].as<std::string>());
    held.flavor = out.policy->node(node).flavor;
    uint64_t mask = 0;
    for (const auto& gpu : entry["gpus"]) mask |= uint64_t{1} << gpu.as<int>();
    held.assignment.push_back(PodSetAssignment{1, {PodPlacement{node, mask}}});
    const std::string kind = entry["kind"] ? entry["kind"].as<std::string>() : "reclaim";
    if (kind != "reclaim" && kind != "turnover") {
      return invalid_argument("handover kind must be reclaim or turnover, not " + kind);
    }
    held.kind = kind == "turnover" ? HandoverKind::kTurnover : HandoverKind::kReclaim;
    out.snapshot.handovers.push_back(std::move(held));
  }
  return {};
}

}  // namespace

Result<LoadedScenario> load_scheduler_scenario(const std::string& path) {
  std::ifstream file(path);
  if (!file) return not_found("cannot read " + path);
  std::stringstream buffer;
  buffer << file.rdbuf();
  std::vector<YAML::Node> docs = YAML::LoadAll(buffer.str());
  YAML::Emitter policy_text;
  YAML::Node test;
  for (const YAML::Node& doc : docs) {
    if (doc["kind"] && doc["kind"].as<std::string>() == "SchedulerTest") {
      test = doc;
    } else {
      policy_text << doc;
    }
  }
  if (!test) return invalid_argument(path + " has no SchedulerTest document");
  ALLOT_ASSIGN_OR_RETURN(ManifestBundle bundle, parse_manifests(policy_text.c_str(), path));
  ALLOT_ASSIGN_OR_RETURN(CompiledPolicy compiled,
                         CompiledPolicy::compile(bundle.policy, expand_node_pools(bundle.policy)));
  LoadedScenario out;
  out.name = test["metadata"]["name"].as<std::string>();
  const YAML::Node spec = test["spec"];
  out.description = spec["description"] ? spec["description"].as<std::string>() : "";
  out.policy = std::make_shared<const CompiledPolicy>(std::move(compiled));
  out.snapshot.now = Timestamp::epoch() + duration_or(spec["now"], Duration());
  out.snapshot.nodes.assign(out.policy->node_count(), NodeCondition{});
  if (spec["options"] && spec["options"]["turnoverHandovers"]) {
    out.options.turnover_handovers = spec["options"]["turnoverHandovers"].as<bool>();
  }
  const Scheduler scheduler(out.policy);
  uint64_t next_id = 0;
  if (spec["running"])
    ALLOT_RETURN_IF_ERROR(add_running(out, scheduler, spec["running"], &next_id));
  if (spec["pending"]) ALLOT_RETURN_IF_ERROR(add_pending(out, spec["pending"], &next_id));
  if (spec["running"]) link_terminating(out, spec["running"]);
  if (spec["reservations"]) ALLOT_RETURN_IF_ERROR(add_reservations(out, spec["reservations"]));
  if (spec["handovers"]) ALLOT_RETURN_IF_ERROR(add_handovers(out, spec["handovers"]));
  if (spec["nodes"]) {
    for (const auto& item : spec["nodes"]) {
      const NodeIndex node = out.policy->node_by_name(item.first.as<std::string>());
      if (!node.valid()) return not_found("unknown node " + item.first.as<std::string>());
      NodeCondition& c = out.snapshot.nodes[node.value()];
      if (item.second["healthy"]) c.healthy = item.second["healthy"].as<bool>();
      if (item.second["cordoned"]) c.cordoned = item.second["cordoned"].as<bool>();
    }
  }
  out.expect = spec["expect"];
  return out;
}

}  // namespace allot::testing
