// ActivityMetrics: the recorder of what happens in allotd for /metrics: the
// scheduler's cycles (duration, admissions), each admission's wait,
// preemptions by reason, and the HTTP server's requests (count and latency by
// route, method and code).
//
// Contract: the admission loop and the server's threads record; a scrape
// reads copies (teams(), cluster()). Counters start at zero with the process
// (Prometheus' counter semantics: a restart is a reset). Durations are given
// by the caller, measured on whatever clock it was given: the recorder reads
// no clock. Thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include "base/mutex.h"
#include "base/time.h"
#include "service/metrics/metrics_snapshot.h"

namespace allot {

class ActivityMetrics {
 public:
  ActivityMetrics();

  // One scheduling cycle that took `duration` and admitted `admissions`.
  void record_cycle(Duration duration, int64_t admissions);
  // A workload of `team` admitted after waiting `wait`.
  void record_admission(const std::string& team, Duration wait);
  // A workload of `team` preempted for `reason` (scheduler reason names).
  void record_preemption(const std::string& team, const std::string& reason);
  // One HTTP request answered in `seconds` (the server measures it on a
  // monotonic clock, finer than Duration's milliseconds).
  void record_request(const RequestKey& key, double seconds);

  [[nodiscard]] TeamActivity teams() const;
  [[nodiscard]] ClusterActivity cluster() const;

 private:
  mutable Mutex mu_;
  TeamActivity teams_ ALLOT_GUARDED_BY(mu_);
  ClusterActivity cluster_ ALLOT_GUARDED_BY(mu_);
};

}  // namespace allot
