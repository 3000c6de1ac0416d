#include "service/metrics/activity_metrics.h"

namespace allot {
namespace {

double seconds_of(Duration d) { return static_cast<double>(d.ms()) / 1000.0; }

}  // namespace

ActivityMetrics::ActivityMetrics() {
  MutexLock lock(mu_);
  cluster_.cycle_duration = Histogram(cycle_duration_bounds());
  cluster_.admissions_per_cycle = Histogram(admissions_per_cycle_bounds());
}

void ActivityMetrics::record_cycle(Duration duration, int64_t admissions) {
  MutexLock lock(mu_);
  cluster_.cycle_duration.observe(seconds_of(duration));
  cluster_.admissions_per_cycle.observe(static_cast<double>(admissions));
}

void ActivityMetrics::record_admission(const std::string& team, Duration wait) {
  MutexLock lock(mu_);
  auto [it, added] = teams_.admission_wait.try_emplace(team);
  if (added) it->second = Histogram(admission_wait_bounds());
  it->second.observe(seconds_of(wait));
}

void ActivityMetrics::record_preemption(const std::string& team, const std::string& reason) {
  MutexLock lock(mu_);
  ++teams_.preemptions[{team, reason}];
}

void ActivityMetrics::record_request(const RequestKey& key, double seconds) {
  MutexLock lock(mu_);
  ++cluster_.requests[key];
  auto [it, added] = cluster_.request_duration.try_emplace({key.route, key.method});
  if (added) it->second = Histogram(request_duration_bounds());
  it->second.observe(seconds);
}

TeamActivity ActivityMetrics::teams() const {
  MutexLock lock(mu_);
  return teams_;
}

ClusterActivity ActivityMetrics::cluster() const {
  MutexLock lock(mu_);
  return cluster_;
}

}  // namespace allot
