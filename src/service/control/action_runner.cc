#include "service/control/action_runner.h"

#include <utility>

namespace allot {

void ActionRunner::carry_out(Actions actions) {
  for (const StopAction& stop : actions.stops) executor_.stop(stop.workload, stop.grace);
  for (const WorkloadLaunch& launch : actions.launches) executor_.launch(launch);
}

void ActionRunner::on_pod_event(const PodEvent& event) {
  {
    MutexLock lock(mu_);
    if (event.phase == PodPhase::kRunning) {
      reports_.started.push_back(event.pod);
    } else {
      reports_.exits.push_back(event);
    }
  }
  signal_.wake();
}

PodReports ActionRunner::take_reports() {
  MutexLock lock(mu_);
  PodReports taken;
  std::swap(taken, reports_);
  return taken;
}

}  // namespace allot
