#include "service/control/action_runner.h"

#include <utility>

namespace allot {

void ActionRunner::carry_out(Actions actions) {
  for (const StopAction& stop : actions.stops) executor_.stop(stop.uid, stop.grace);
  if (actions.launches.empty()) return;
  std::vector<LaunchReport> reports;
  for (const std::vector<PodLaunch>& pods : actions.launches) {
    LaunchReport report;
    report.uid = pods.empty() ? 0 : pods.front().workload_id;
    for (const PodLaunch& pod : pods) {
      const Status launched = executor_.launch(pod);
      if (launched.ok()) {
        ++report.started;
      } else {
        report.failures.emplace_back(pod.pod_index, launched.message());
        on_pod_exit({pod.workload_id, pod.pod_index, 127, 0, false});
      }
    }
    reports.push_back(std::move(report));
  }
  {
    MutexLock lock(mu_);
    for (LaunchReport& report : reports) reports_.launches.push_back(std::move(report));
  }
  signal_.wake();
}

void ActionRunner::on_pod_exit(const PodExit& exit) {
  {
    MutexLock lock(mu_);
    reports_.exits.push_back(exit);
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
