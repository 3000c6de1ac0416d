// Scenario: arrivals on virtual time for a what-if simulation (DESIGN.md
// "Manifests by example"). Times are offsets from the start of the simulation.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/time.h"
#include "model/object_meta.h"
#include "model/workload.h"

namespace allot {

// One explicit arrival: `workload` arrives at `at` and, once running, needs
// `runtime` of work (a preempted workload without checkpoint starts over; one
// with checkpoints resumes from its last, model/checkpoint_progress.h).
// A Space (docs/spaces.md) may say how it is used: `idle_after` (idleAfter),
// how long each of its runs is active before its user leaves it (then it is
// suspended idleTimeoutSeconds later); `resume_after` (resumeAfter), how long
// after a suspension its user comes back and resumes it (unset: never).
struct ScenarioArrival {
  Duration at;
  Duration runtime;
  Workload workload;
  std::optional<Duration> idle_after;
  std::optional<Duration> resume_after;

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

// An InferenceEndpoint's desired replica count becomes `replicas` at `at`
// (within its [min, max]); it starts at min when the endpoint arrives.
struct ScenarioScaleEvent {
  Duration at;
  std::string namespace_name;
  std::string workload;
  int32_t replicas = 0;

  friend bool operator==(const ScenarioScaleEvent&, const ScenarioScaleEvent&) = default;
};

struct Scenario {
  ObjectMeta meta;
  std::optional<Duration> cycle;  // overrides the Cluster's scheduling cycle
  // Real backends are not instant. podStartLatency: from a launch until the
  // pods' work begins (the run holds its quota meanwhile, and pays it again
  // on every restart). podStopLatency: how long a pod takes to end once it is
  // asked to stop (SIGTERM), within its grace period, which bounds it (a pod
  // with no grace period is killed at once). Unset: start at once, and use
  // the whole grace period.
  std::optional<Duration> pod_start_latency;
  // podStartLatencyByPriorityClass: a start latency per priority class name,
  // in place of podStartLatency for the workloads of that class (a real
  // backend starts a class that arrives in bursts later than a rare one).
  std::map<std::string, Duration> pod_start_latency_by_class;
  std::optional<Duration> pod_stop_latency;
  std::vector<ScenarioArrival> workloads;
  std::vector<ScenarioGenerator> generators;
  std::vector<ScenarioNodeEvent> node_events;
  std::vector<ScenarioScaleEvent> scale_events;  // `scale:` in the Scenario's spec

  friend bool operator==(const Scenario&, const Scenario&) = default;
};

}  // namespace allot
