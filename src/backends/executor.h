// Executor: the execution port (DESIGN.md section 5): launch pods, stop them,
// report their exits, serve their logs.
//
// Contract:
// - launch() starts one pod and returns once it runs (or fails to start). Its
//   exit is later reported exactly once through the PodExitSink, from an
//   executor thread; the sink must not call back into the executor while
//   holding locks the executor could wait on.
// - stop() stops every pod of a workload: SIGTERM (or the backend's
//   equivalent), then after `grace` a hard kill. Each stopped pod's exit is
//   reported with `stopped = true`. Stopping an unknown or finished workload
//   does nothing.
// - Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/quantity.h"
#include "base/result.h"
#include "base/status.h"
#include "base/time.h"

namespace allot {

struct PodLaunch {
  uint64_t workload_id = 0;
  int32_t pod_index = 0;  // 0..pods-1 across the workload's pod sets
  std::string workload_name;
  std::string namespace_name;
  std::string team;  // its Unix identity is derived from it
  std::string node;
  std::vector<int32_t> gpus;  // indices on the node; CUDA_VISIBLE_DEVICES
  ResourceVector resources;   // per pod: cgroup limits where available
  std::vector<std::string> command;
  std::map<std::string, std::string> env;
  // Sleep mode: no command; the pod only waits this long, then succeeds.
  std::optional<Duration> sleep;
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

class Executor {
 public:
  virtual ~Executor() = default;

  virtual Status launch(const PodLaunch& pod) = 0;
  virtual void stop(uint64_t workload_id, Duration grace) = 0;

  // Up to `max_bytes` of a pod's combined stdout and stderr from `offset`.
  // kNotFound when the pod never ran here.
  virtual Result<std::string> read_log(uint64_t workload_id, int32_t pod_index, int64_t offset,
                                       int64_t max_bytes) = 0;

  // Where a pod's log lives, for people (may be empty for remote backends).
  [[nodiscard]] virtual std::string log_location(uint64_t workload_id, int32_t pod_index) const = 0;
};

}  // namespace allot
