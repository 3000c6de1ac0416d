// VirtualExecutor: the simulated backend behind the executor port
// (backends/stepped_executor.h). Its pods run on virtual nodes in virtual
// time: nothing executes; VirtualRuns computes when each run ends, the way a
// real backend would report it.
//
// Contract: as SteppedExecutor. A stopped pod is reported with signal 15
// (SIGTERM, as a real stop sends) and `stopped`. Pods have no output:
// read_log() answers an empty log for a pod that was launched here and
// kNotFound for any other; log_location() is empty.
// Thread-safe (one mutex; events are reported outside it). Deterministic.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "backends/sim/virtual_runs.h"
#include "backends/stepped_executor.h"
#include "base/mutex.h"

namespace allot::sim {

class VirtualExecutor final : public SteppedExecutor {
 public:
  VirtualExecutor(PodEventSink& sink, VirtualWorkModel model);

  void launch(const WorkloadLaunch& launch) override;
  void stop(WorkloadId workload, Duration grace) override;
  void suspend(WorkloadId workload, Duration grace) override;
  Result<std::string> read_log(PodId pod, int64_t offset, int64_t max_bytes) override;
  [[nodiscard]] std::string log_location(PodId pod) const override;
  [[nodiscard]] std::optional<ActivitySample> activity(WorkloadId workload) override;

  [[nodiscard]] Timestamp now() const override;
  [[nodiscard]] Timestamp next_event_time() const override;
  void advance_to(Timestamp time) override;

 private:
  struct Work {
    VirtualWork model;
    Duration remaining;         // what the next run needs
    std::vector<int32_t> pods;  // the pod indices of the current run
    int32_t pod_slots = 0;      // 1 + the highest pod index ever launched
    Timestamp work_begins;      // of the current run: its launch + start latency
    bool suspending = false;    // the current run keeps all its progress
  };
  void report(const std::vector<PodEvent>& events);

  PodEventSink& sink_;
  const VirtualWorkModel model_;
  mutable Mutex mu_;
  VirtualRuns runs_ ALLOT_GUARDED_BY(mu_);
  std::unordered_map<uint64_t, Work> work_ ALLOT_GUARDED_BY(mu_);
  Timestamp now_ ALLOT_GUARDED_BY(mu_);
};

// The SteppedExecutorFactory of this backend, for app/ to hand down.
SteppedExecutorFactory virtual_executor_factory();

}  // namespace allot::sim
