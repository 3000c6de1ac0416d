// Test helpers for simulation tests: parse an inline scenario, load an
// example file, and check the scheduler's plans against invariants after
// every cycle (through SimulationOptions::on_cycle), and against the plan of
// the plain path (the simulator plans from team queues it keeps between
// cycles; a Scheduler here plans the same snapshot from scratch).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/manifest_parser.h"
#include "model/node.h"
#include "model/policy.h"
#include "model/scenario.h"
#include "scheduler/plan.h"
#include "scheduler/scheduler.h"
#include "scheduler/snapshot.h"
#include "service/simulation/simulation_options.h"
#include "service/simulation/simulation_report.h"

namespace allot::testing {

// Policy head shared by small simulation tests: flavor h100, a pool of two
// 8-GPU nodes, priority class `normal` (100). Teams and the Scenario follow.
inline constexpr std::string_view kTwoNodePool = R"(
apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: h100}
spec: {}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: pool}
spec: {flavor: h100, count: 2, resources: {gpu: 8, cpu: 64, memory: 512Gi}}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: normal}
spec: {value: 100}
---
)";

struct LoadedScenario {
  Policy policy;
  Scenario scenario;
};

// Parses YAML with a policy and one Scenario; aborts the test on errors.
LoadedScenario parse_scenario(std::string_view yaml);
// Loads examples/scenarios/<name>.yaml from the source tree.
LoadedScenario load_example(std::string_view name);

// The record of the workload called `name`; fails the test when absent.
const WorkloadRecord& record_of(const SimulationReport& report, std::string_view name);
const TeamMetrics& team_of(const SimulationReport& report, std::string_view name);
const ClassMetrics& class_of(const SimulationReport& report, std::string_view name);

// Options that run the simulated pods on the sim backend's VirtualExecutor
// (what app/ chooses for `allot simulate`).
SimulationOptions virtual_options();

// Checks every plan against the invariants any correct plan satisfies:
// admissions are of pending workloads, victims are admitted and not yet
// terminating, nothing is admitted twice, pods land on schedulable nodes and
// no node is ever over capacity (preemption victims keep theirs until they
// stop; evicted workloads stop at once and free theirs).
class PlanInvariants {
 public:
  explicit PlanInvariants(const Policy& policy);

  // Installs the checker into `options` (the checker must outlive the run).
  void attach(SimulationOptions& options);
  void check(const Snapshot& snapshot, const Plan& plan);

  [[nodiscard]] const std::vector<std::string>& violations() const { return violations_; }
  [[nodiscard]] int64_t cycles_checked() const { return cycles_; }

 private:
  void violation(const Snapshot& snapshot, std::string what);
  // Capacity held per node by admitted workloads, evicted ones excepted.
  std::vector<ResourceVector> held_capacity(
      const Snapshot& snapshot, const Plan& plan,
      const std::map<uint64_t, const PendingWorkload*>& pending);
  void check_preemptions(const Snapshot& snapshot, const Plan& plan);
  // The plan again from scratch (no kept team queues): the same decisions
  // and explanations.
  void check_plain_path(const Snapshot& snapshot, const Plan& plan);
  // Adds the admitted pods to `used`.
  void check_admissions(const Snapshot& snapshot, const Plan& plan,
                        const std::map<uint64_t, const PendingWorkload*>& pending,
                        std::vector<ResourceVector>& used);

  std::vector<Node> nodes_;
  std::optional<Scheduler> plain_;  // when the policy compiles
  std::vector<std::string> violations_;
  int64_t cycles_ = 0;
};

}  // namespace allot::testing
