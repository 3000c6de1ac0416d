// RateLimiter: request rate limits per client (issue 10), token buckets keyed
// by the client (today the peer's address; the caller's identity once
// requests carry one).
//
// Contract: each key has a bucket of `burst` tokens that refills at
// `per_second` tokens a second; take() spends one and answers whether the
// request may go on, and if not, how long until a token is back. Time is
// given by the caller (a monotonic clock in allotd, chosen instants in
// tests), never read here. At most `max_keys` buckets are kept: when the
// table is full, buckets that have refilled completely (clients quiet long
// enough to be as good as new) are dropped first, and if none has, the
// request is judged against a fresh bucket without being remembered, so
// that a flood of new addresses cannot grow the table. The sweep for full
// buckets runs at most once a second, so that such a flood cannot make each
// request walk the whole table either. Thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "base/mutex.h"

namespace allot::server {

struct RateDecision {
  bool allowed = true;
  std::chrono::milliseconds retry_after{0};  // when refused
};

class RateLimiter {
 public:
  using Instant = std::chrono::steady_clock::time_point;

  // REQUIRES: per_second > 0, burst >= 1.
  RateLimiter(double per_second, double burst, size_t max_keys = 65536);

  RateDecision take(std::string_view key, Instant now);

  [[nodiscard]] size_t keys() const;

 private:
  struct Bucket {
    double tokens = 0;
    Instant updated;
  };
  void refill(Bucket& bucket, Instant now) const;
  RateDecision spend(Bucket& bucket) const;
  void drop_full_buckets(Instant now) ALLOT_REQUIRES(mu_);

  double per_second_;
  double burst_;
  size_t max_keys_;
  mutable Mutex mu_;
  std::unordered_map<std::string, Bucket> buckets_ ALLOT_GUARDED_BY(mu_);
  std::optional<Instant> last_sweep_ ALLOT_GUARDED_BY(mu_);
};

}  // namespace allot::server
