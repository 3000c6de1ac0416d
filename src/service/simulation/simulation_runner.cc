#include "service/simulation/simulation_runner.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "model/node_inventory.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/endpoint_replicas.h"
#include "scheduler/workload_request.h"
#include "service/simulation/simulation_loop.h"
#include "service/simulation/simulation_metrics.h"

namespace allot {
namespace {

Result<std::vector<NodeHealthChange>> resolve_node_events(
    const CompiledPolicy& policy, const std::vector<ScenarioNodeEvent>& events) {
  std::vector<NodeHealthChange> changes;
  for (size_t i = 0; i < events.size(); ++i) {
    const std::string where = "Scenario.spec.nodeEvents[" + std::to_string(i) + "]";
    const NodeIndex node = policy.node_by_name(events[i].node);
    if (!node.valid()) {
      return not_found("unknown node '" + events[i].node + "'", where + ".node");
    }
    if (events[i].at < Duration()) {
      return invalid_argument("event time is negative", where + ".at");
    }
    changes.push_back({Timestamp::epoch() + events[i].at, node, events[i].healthy});
  }
  std::stable_sort(
      changes.begin(), changes.end(),
      [](const NodeHealthChange& a, const NodeHealthChange& b) { return a.at < b.at; });
  return changes;
}

// The metered resource: GPUs when the cluster has any, else CPUs.
Resource primary_resource(const std::vector<Node>& nodes) {
  const bool has_gpus = std::any_of(nodes.begin(), nodes.end(),
                                    [](const Node& node) { return node.capacity.gpu() > 0; });
  return has_gpus ? Resource::kGpu : Resource::kCpu;
}

SimulationTrace empty_trace(const Policy& policy, const CompiledPolicy& compiled,
                            const std::vector<Node>& nodes, Resource primary) {
  SimulationTrace trace;
  trace.primary_resource = std::string(resource_name(primary));
  for (const Node& node : nodes) {
    trace.capacity += node.capacity[primary];
  }
  for (const CompiledTeam& compiled_team : compiled.teams()) {
    TracedTeam team;
    team.name = compiled_team.name;
    if (const Team* source = policy.find_team(compiled_team.name); source != nullptr) {
      for (const FlavorQuota& quota : source->quota) {
        team.nominal += quota.of(primary).nominal;
      }
    }
    trace.teams.push_back(std::move(team));
  }
  for (const PriorityClass& priority_class : policy.priority_classes) {
    trace.class_order.push_back(priority_class.meta.name);
  }
  return trace;
}

// Checks every arrival against the policy before the clock starts, so that a
// bad workload fails the run at once with its name.
Status prepare_arrivals(const CompiledPolicy& compiled, const ArrivalStream& arrivals,
                        SimulationLoopInput& input, SimulationTrace& trace) {
  input.arrivals.reserve(arrivals.size());
  trace.workloads.reserve(arrivals.size());
  for (size_t i = 0; i < arrivals.size(); ++i) {
    const Arrival& arrival = arrivals.arrivals()[i];
    const Workload& workload = arrival.workload;
    Result<PendingWorkload> request =
        arrival.replica >= 0
            ? make_replica_request(compiled, workload, arrival.replica, WorkloadId(i), arrival.at)
            : make_pending_workload(compiled, workload, WorkloadId(i), arrival.at);
    if (!request.ok()) {
      return request.status().with_context("Workload/" + workload.meta.namespace_name + "/" +
                                           workload.meta.name);
    }
    TracedWorkload traced;
    traced.name = workload.meta.name;
    traced.namespace_name = workload.meta.namespace_name;
    traced.priority_class = workload.spec.priority_class;
    traced.team = request->team.value();
    traced.arrived_at = arrival.at;
    trace.workloads.push_back(std::move(traced));
    // Progress is kept across a Space's suspension whatever its checkpoints
    // (SteppedExecutor::suspend); `checkpointed` is what spec.checkpoint says.
    const std::optional<CheckpointSpec>& checkpoint = workload.spec.checkpoint;
    input.arrivals.push_back({std::move(request).value(), arrival.runtime, checkpoint.has_value(),
                              checkpoint ? checkpoint->interval : std::nullopt,
                              workload.spec.idle_timeout, arrival.idle_after, arrival.resume_after,
                              arrival.replica >= 0, arrival.withdraw_at,
                              !workload.spec.priority_class.empty()});
  }
  return {};
}

}  // namespace

Result<Duration> simulation_cycle(const Policy& policy, std::optional<Duration> cycle) {
  Duration chosen = Duration::seconds(1);
  std::string where = "Cluster.spec.scheduling.cycle";
  if (cycle) {
    chosen = *cycle;
    where = "Scenario.spec.cycle";
  } else if (!policy.clusters.empty()) {
    chosen = policy.clusters.front().scheduling.cycle;
    where = "Cluster/" + policy.clusters.front().meta.name + ".spec.scheduling.cycle";
  }
  if (chosen <= Duration()) {
    return invalid_argument("the scheduling cycle must be positive", where);
  }
  return chosen;
}

Result<SimulationReport> run_simulation(const Policy& policy, const Scenario& scenario,
                                        const SimulationOptions& options) {
  ALLOT_ASSIGN_OR_RETURN(ArrivalStream arrivals, ArrivalStream::from_scenario(scenario));
  SimulationOptions with_latencies = options;
  if (scenario.pod_start_latency) with_latencies.pod_start_latency = *scenario.pod_start_latency;
  if (!scenario.pod_start_latency_by_class.empty()) {
    with_latencies.pod_start_latency_by_class = scenario.pod_start_latency_by_class;
  }
  if (scenario.pod_stop_latency) with_latencies.pod_stop_latency = scenario.pod_stop_latency;
  return run_simulation(policy, arrivals, scenario.node_events, scenario.cycle, with_latencies);
}

Result<SimulationReport> run_simulation(const Policy& policy, const ArrivalStream& arrivals,
                                        const std::vector<ScenarioNodeEvent>& node_events,
                                        std::optional<Duration> cycle,
                                        const SimulationOptions& options) {
  ALLOT_RETURN_IF_ERROR(validate_policy(policy));
  std::vector<Node> nodes = expand_node_pools(policy);
  const Resource primary = primary_resource(nodes);
  ALLOT_ASSIGN_OR_RETURN(CompiledPolicy compiled_value, CompiledPolicy::compile(policy, nodes));
  auto compiled = std::make_shared<const CompiledPolicy>(std::move(compiled_value));
  for (const auto& entry : options.pod_start_latency_by_class) {
    const std::string& name = entry.first;
    if (!compiled->priority_class_by_name(name).valid()) {
      return invalid_argument("no PriorityClass named '" + name + "' in the policy",
                              "Scenario.spec.podStartLatencyByPriorityClass." + name);
    }
  }

  SimulationLoopInput input;
  input.policy = compiled;
  input.primary = primary;
  ALLOT_ASSIGN_OR_RETURN(input.cycle, simulation_cycle(policy, cycle));
  ALLOT_ASSIGN_OR_RETURN(input.node_events, resolve_node_events(*compiled, node_events));
  SimulationTrace trace = empty_trace(policy, *compiled, nodes, primary);
  ALLOT_RETURN_IF_ERROR(prepare_arrivals(*compiled, arrivals, input, trace));

  SimulationLoop loop(std::move(input), options);
  ALLOT_RETURN_IF_ERROR(loop.run(trace));
  return summarize_simulation(trace);
}

}  // namespace allot
