// ActionRunner: carries the control plane's decisions out on the Executor
// (stops, then launches) and collects what the executor reports back about
// each pod (started, exited, could not start), for the admission loop.
//
// Contract:
// - carry_out() runs only after the decisions it carries were committed
//   (DESIGN: decisions are persisted before they are carried out), on the
//   caller's thread: the admission loop waits for the local backend's forks
//   (a backend that submits asynchronously returns at once).
// - on_pod_event() may be called from any executor thread; it queues the
//   event and wakes the loop.
// - take_reports() hands over everything queued since its last call: the
//   pods that started, and the exits in the order they came.
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

struct PodReports {
  std::vector<PodId> started;
  std::vector<PodEvent> exits;  // a non-empty launch_error: the pod never ran
};

class ActionRunner final : public PodEventSink {
 public:
  ActionRunner(Executor& executor, LoopSignal& signal) : executor_(executor), signal_(signal) {}

  void carry_out(Actions actions) ALLOT_EXCLUDES(mu_);
  void on_pod_event(const PodEvent& event) override ALLOT_EXCLUDES(mu_);
  PodReports take_reports() ALLOT_EXCLUDES(mu_);

  Executor& executor() { return executor_; }

 private:
  Executor& executor_;
  LoopSignal& signal_;
  Mutex mu_;
  PodReports reports_ ALLOT_GUARDED_BY(mu_);
};

}  // namespace allot
