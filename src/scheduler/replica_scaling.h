// ReplicaScaler: the desired replica count of an InferenceEndpoint from its
// declared signal (docs/endpoints.md), a pure rule with injected time.
//
// Contract:
// - recommend(signal, current): the raw count for one reading, clamped to
//   [min, max]. queueDepth: ceil(signal / target), signal = requests queued
//   for the whole endpoint. cpu: ceil(current x signal / target), signal = the
//   replicas' mean CPU use in percent of their request (current 0 counts as
//   1, so an endpoint scaled to zero can come back). external: signal is the
//   count itself (rounded up).
// - observe(recommendation, now): the desired count after a recommendation
//   made at `now`. Scaling up is immediate; scaling down waits for the
//   stabilisation window: the result is the highest recommendation seen in
//   (now - window, now], so one quiet reading never drops replicas that a
//   busy one a moment ago needed. external skips the window (the caller's
//   number is the decision). Readings must come in time order (a reading
//   older than the newest is ignored).
// Value type; no clock, no I/O.
#pragma once

#include <cstdint>
#include <deque>

#include "base/time.h"
#include "model/workload.h"

namespace allot {

class ReplicaScaler {
 public:
  // REQUIRES: 0 <= spec.min_replicas <= spec.max_replicas; target > 0 unless external.
  explicit ReplicaScaler(const EndpointSpec& spec);

  [[nodiscard]] int32_t recommend(double signal, int32_t current) const;
  int32_t observe(int32_t recommendation, Timestamp now);
  // Both steps: recommend() then observe().
  int32_t update(double signal, int32_t current, Timestamp now) {
    return observe(recommend(signal, current), now);
  }

 private:
  struct Reading {
    Timestamp at;
    int32_t replicas = 0;
  };
  [[nodiscard]] int32_t clamp(double replicas) const;

  EndpointSpec spec_;
  std::deque<Reading> window_;  // readings within the window, oldest first
};

}  // namespace allot
