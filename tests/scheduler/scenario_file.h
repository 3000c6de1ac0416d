// Scheduler scenario files: a readable test format that a platform engineer
// who knows Kueue can review without reading C++.
//
// A scenario file is a multi-document YAML file: ordinary allot policy
// manifests (Cluster, ResourceFlavor, NodePool, Cohort, Team, PriorityClass)
// plus one `kind: SchedulerTest` document:
//
//   spec:
//     description: what the rule is and why
//     now: 1h                       # the time of the cycle under test
//     nodes: {pool-3: {healthy: false}}        # node conditions (optional)
//     running:                      # the state: admitted workloads, in order
//       - {name, namespace, priorityClass, startedAt, maxRuntimeSeconds?,
//          checkpointAt?, podSets, nodes?: [node per pod], terminating?, preemptedFor?,
//          notStarted?: true (admitted, its pods not seen running yet)}
//     pending:                      # the event: workloads waiting to be admitted
//       - {name, namespace, priorityClass, queuedAt, maxRuntimeSeconds?, podSets, preemptedBy?}
//     reservations:                 # the previous cycle's plan reserved (optional)
//       - {workload: ns/name, nodes: [...], startsAt: 40m}   # startsAt: drain for a drain
//     options: {turnoverHandovers: true}  # SchedulerOptions (optional)
//     handovers:                    # the previous cycle's plan promised (optional)
//       - {workload: ns/name, after: [ns/name, ...], node: n, gpus: [0, 1], kind?: turnover}
//     expect:                       # the decision (every key optional)
//       admitted: [ns/name, ...]            # exactly these are admitted
//       preempted: [ns/name, ...]           # exactly these are preempted
//       evicted: [ns/name, ...]
//       borrowing: [ns/name, ...]           # admitted ones that borrow
//       pending: {ns/name: QuotaExhausted}  # reason of a pending workload
//       verdicts: {ns/name: NoCandidates}   # preemption verdict of a pending one
//       preemptionReasons: {victim: ReclaimWithinCohort}
//       placement: {ns/name: {flavor: h100, racks: 1, nodes: [...]}}
//       partial: {ns/name: [3]}             # admitted pod counts per pod set
//       reserved: {ns/name: {startsAt: 2h, nodes: [...]}}  # nodes: exactly these; startsAt: drain
//       notReserved: [ns/name, ...]         # pending without a reservation
//       estimatedStart: {ns/name: 1h30m}
//       explanation: {ns/name: "text that the explanation contains"}
//       handovers: {ns/name: {after: [...], node: n, gpus: [...], kind?}}  # exactly these
//       withdrawn: [ns/name, ...]           # handovers broken this cycle
//     (placement may name `gpus: [...]` too: every pod's GPU indices, as one set)
//
// An entry may be one replica of an InferenceEndpoint: `kind: InferenceEndpoint`,
// `replicas: {min, max}` and `replica: i` (0-based; i < min is guaranteed, the
// rest burst: scheduler/endpoint_replicas.h).
//
// Running workloads without `nodes` are placed by the scheduler itself, one
// by one in file order, before the cycle under test.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "base/result.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/plan.h"
#include "scheduler/scheduler.h"
#include "scheduler/snapshot.h"

namespace allot::testing {

struct LoadedScenario {
  std::string name;
  std::string description;
  std::shared_ptr<const CompiledPolicy> policy;
  SchedulerOptions options;
  Snapshot snapshot;
  std::map<uint64_t, std::string> names;  // WorkloadId -> "ns/name"
  YAML::Node expect;
};

Result<LoadedScenario> load_scheduler_scenario(const std::string& path);

// Checks a plan against `expect`; returns every mismatch (empty when it passes).
std::vector<std::string> check_expectations(const LoadedScenario& scenario, const Plan& plan);

}  // namespace allot::testing
