// Workload: what users submit. Pod sets are gangs: all `count` pods (or at
// least `minCount`, for partial admission) are admitted together or not at all.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/quantity.h"
#include "base/time.h"
#include "model/object_meta.h"

namespace allot {

enum class WorkloadKind { kTrainingJob, kInferenceEndpoint, kSpace, kJob };

struct PodSet {
  std::string name = "main";
  int32_t count = 1;
  int32_t min_count = 0;     // 0: same as count (no partial admission)
  ResourceVector resources;  // per pod
  std::string flavor;        // empty: any flavor of the team, in the team's order

  [[nodiscard]] int32_t effective_min_count() const { return min_count > 0 ? min_count : count; }

  friend bool operator==(const PodSet&, const PodSet&) = default;
};

struct CheckpointSpec {
  std::string env;  // variable that carries the checkpoint directory
  // How often the workload writes a checkpoint (spec.checkpoint.intervalSeconds),
  // for the simulator: a preempted run keeps its progress floored to a multiple
  // of it. Unset: it checkpoints continuously (nothing is lost). Positive.
  std::optional<Duration> interval;
  friend bool operator==(const CheckpointSpec&, const CheckpointSpec&) = default;
};

// How an InferenceEndpoint's desired replica count is set (docs/endpoints.md):
// external: by `POST .../workloads/{name}/scale {"replicas": N}`; queueDepth:
// ceil(queued requests / target); cpu: ceil(replicas x mean CPU% / target).
enum class ScaleSignal { kExternal, kQueueDepth, kCpu };

// The replica range and scaling rule of an InferenceEndpoint. Each replica is
// one instance of the workload's pod sets, scheduled as a gang of its own;
// replicas [0, min) are guaranteed (within the team's nominal quota, at the
// endpoint's priority), replicas [min, max) are burst (borrowed or idle
// capacity, below every priority class).
struct EndpointSpec {
  int32_t min_replicas = 1;
  int32_t max_replicas = 1;
  ScaleSignal scale_on = ScaleSignal::kExternal;
  double target = 0;  // queueDepth: requests per replica; cpu: percent per replica
  Duration scale_down_window = Duration::seconds(300);

  friend bool operator==(const EndpointSpec&, const EndpointSpec&) = default;
};

struct WorkloadSpec {
  WorkloadKind kind = WorkloadKind::kJob;
  std::string priority_class;
  std::vector<PodSet> pod_sets;
  std::vector<std::string> command;
  std::map<std::string, std::string> env;
  std::optional<Duration> max_runtime;
  std::optional<CheckpointSpec> checkpoint;
  std::optional<Duration> idle_timeout;  // spaces
  std::optional<EndpointSpec> endpoint;  // kind InferenceEndpoint only (required there)

  friend bool operator==(const WorkloadSpec&, const WorkloadSpec&) = default;
};

struct Workload {
  ObjectMeta meta;  // namespace = the team's namespace
  WorkloadSpec spec;

  friend bool operator==(const Workload&, const Workload&) = default;
};

}  // namespace allot
