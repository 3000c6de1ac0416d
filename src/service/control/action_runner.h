// ActionRunner: carries the control plane's decisions out on the Executor
// (stops, then launches) and collects what the executor reports back: pod
// exits and the outcome of each launch, for the admission loop to apply.
//
// Contract:
// - carry_out() runs only after the decisions it carries were committed
//   (DESIGN: decisions are persisted before they are carried out). A pod that
//   fails to launch is reported as a launch failure and as an exit (127).
// - on_pod_exit() may be called from any executor thread; it queues the exit
//   and wakes the loop.
// - take_reports() hands over everything queued since its last call.
// Thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "backends/executor.h"
#include "base/mutex.h"
#include "service/control/loop_signal.h"
#include "service/control/server_state.h"

namespace allot {

struct LaunchReport {
  uint64_t uid = 0;
  int32_t started = 0;
  std::vector<std::pair<int32_t, std::string>> failures;  // pod index, why
};

struct PodReports {
  std::vector<PodExit> exits;
  std::vector<LaunchReport> launches;
};

class ActionRunner final : public PodExitSink {
 public:
  ActionRunner(Executor& executor, LoopSignal& signal) : executor_(executor), signal_(signal) {}

  void carry_out(Actions actions) ALLOT_EXCLUDES(mu_);
  void on_pod_exit(const PodExit& exit) override ALLOT_EXCLUDES(mu_);
  PodReports take_reports() ALLOT_EXCLUDES(mu_);

  Executor& executor() { return executor_; }

 private:
  Executor& executor_;
  LoopSignal& signal_;
  Mutex mu_;
  PodReports reports_ ALLOT_GUARDED_BY(mu_);
};

}  // namespace allot
