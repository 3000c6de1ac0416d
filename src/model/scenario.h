// Scenario: arrivals on virtual time for a what-if simulation (DESIGN.md
// "Manifests by example"). Times are offsets from the start of the simulation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/time.h"
#include "model/object_meta.h"
#include "model/workload.h"

namespace allot {

// One explicit arrival: `workload` arrives at `at` and, once running, needs
// `runtime` of work (a preempted workload without checkpoint starts over).
struct ScenarioArrival {
  Duration at;
  Duration runtime;
  Workload workload;

  friend bool operator==(const ScenarioArrival&, const ScenarioArrival&) = default;
};

// `count` arrivals, one every `every` from `start`; names are
// "<namePrefix>-<i>" (namePrefix defaults to "<namespace>-<priorityClass>").
struct ScenarioGenerator {
  std::string name_prefix;
  std::string namespace_name;
  int64_t count = 0;
  Duration every;
  Duration start;
  Duration runtime;
  WorkloadSpec spec;  // priority class, pod sets, maxRuntime, checkpoint

  friend bool operator==(const ScenarioGenerator&, const ScenarioGenerator&) = default;
};

// A node's health changes at `at` (a failure, or a recovery).
struct ScenarioNodeEvent {
  Duration at;
  std::string node;
  bool healthy = false;

  friend bool operator==(const ScenarioNodeEvent&, const ScenarioNodeEvent&) = default;
};

struct Scenario {
  ObjectMeta meta;
  std::optional<Duration> cycle;  // overrides the Cluster's scheduling cycle
  std::vector<ScenarioArrival> workloads;
  std::vector<ScenarioGenerator> generators;
  std::vector<ScenarioNodeEvent> node_events;

  friend bool operator==(const Scenario&, const Scenario&) = default;
};

}  // namespace allot
