// UsageReconciler: allotd's thread that brings metering in line with the
// backend's own accounting every `interval` (Slurm's sacct:
// service/control/usage_reconciliation.h; `allotd --slurm-reconcile`).
//
// Contract: the first run is one interval after construction; a failed run
// is logged (warn) and tried again next interval; adjustments made are
// logged (info). stop() (also the destructor) ends the thread, waiting for
// a run in flight. Destroy it before the ControlPlane.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

#include "base/logger.h"
#include "base/time.h"
#include "service/control/control_plane.h"

namespace allot::app {

class UsageReconciler {
 public:
  UsageReconciler(ControlPlane& plane, Duration interval, Logger& logger);
  ~UsageReconciler();
  UsageReconciler(const UsageReconciler&) = delete;
  UsageReconciler& operator=(const UsageReconciler&) = delete;

  void stop();

 private:
  void run();

  ControlPlane& plane_;
  Duration interval_;
  Logger& logger_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace allot::app
