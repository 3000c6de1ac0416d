// PodLaunch and PodExit: one pod as the local backend runs it (a process) and
// as it ends. The LocalExecutor splits a WorkloadLaunch into PodLaunches
// (pods_of()) and turns each PodExit into the port's PodEvent.
//
// Contract: plain values; pods_of() is pure and keeps the launch's pod order.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backends/executor.h"
#include "base/quantity.h"
#include "base/time.h"

namespace allot::local {

struct PodLaunch {
  uint64_t workload_id = 0;
  int32_t pod_index = 0;  // 0..pods-1 across the workload's pod sets
  std::string workload_name;
  std::string namespace_name;
  std::string team;  // its Unix identity is derived from it
  std::string user;  // who submitted it (ALLOT_USER; its account in the team); may be empty
  std::string node;
  std::vector<int32_t> gpus;  // indices on the node; CUDA_VISIBLE_DEVICES
  ResourceVector resources;   // per pod: cgroup limits where available
  std::vector<std::string> command;
  std::map<std::string, std::string> env;
  std::string checkpoint_dir;  // made for the team before it starts; empty: none
};

struct PodExit {
  uint64_t workload_id = 0;
  int32_t pod_index = 0;
  int exit_code = 0;     // when it exited normally
  int signal = 0;        // when a signal ended it (0 otherwise)
  bool stopped = false;  // ended by stop()

  [[nodiscard]] bool succeeded() const { return signal == 0 && exit_code == 0 && !stopped; }
};

class PodExitSink {
 public:
  virtual ~PodExitSink() = default;
  virtual void on_pod_exit(const PodExit& exit) = 0;
};

inline std::vector<PodLaunch> pods_of(const WorkloadLaunch& launch) {
  std::vector<PodLaunch> pods;
  pods.reserve(launch.pods.size());
  for (const PlacedPod& placement : launch.pods) {
    pods.push_back({launch.workload.value(), placement.index, launch.name, launch.namespace_name,
                    launch.team.str(), launch.user, placement.node.str(), placement.gpus,
                    placement.resources, launch.command, launch.env, launch.checkpoint_dir});
  }
  return pods;
}

inline PodEvent to_pod_event(const PodExit& exit) {
  PodEvent event;
  event.pod = {WorkloadId(exit.workload_id), exit.pod_index};
  event.phase = PodPhase::kExited;
  event.exit_code = exit.exit_code;
  event.signal = exit.signal;
  event.stopped = exit.stopped;
  return event;
}

}  // namespace allot::local
