#include "server/rate_limiter.h"

#include <algorithm>
#include <cmath>

#include "base/check.h"

namespace allot::server {

RateLimiter::RateLimiter(double per_second, double burst, size_t max_keys)
    : per_second_(per_second), burst_(burst), max_keys_(max_keys) {
  ALLOT_CHECK(per_second > 0 && burst >= 1 && max_keys > 0);
}

void RateLimiter::refill(Bucket& bucket, Instant now) const {
  if (now <= bucket.updated) return;
  const double elapsed = std::chrono::duration<double>(now - bucket.updated).count();
  bucket.tokens = std::min(burst_, bucket.tokens + elapsed * per_second_);
  bucket.updated = now;
}

RateDecision RateLimiter::spend(Bucket& bucket) const {
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return {};
  }
  const double wait_s = (1 - bucket.tokens) / per_second_;
  return {false, std::chrono::milliseconds(static_cast<int64_t>(std::ceil(wait_s * 1000)))};
}

void RateLimiter::drop_full_buckets(Instant now) {
  if (last_sweep_ && now - *last_sweep_ < std::chrono::seconds(1)) return;
  last_sweep_ = now;
  for (auto it = buckets_.begin(); it != buckets_.end();) {
    refill(it->second, now);
    it = it->second.tokens >= burst_ ? buckets_.erase(it) : std::next(it);
  }
}

RateDecision RateLimiter::take(std::string_view key, Instant now) {
  const MutexLock lock(mu_);
  auto found = buckets_.find(std::string(key));
  if (found == buckets_.end()) {
    if (buckets_.size() >= max_keys_) drop_full_buckets(now);
    Bucket fresh{burst_, now};
    if (buckets_.size() >= max_keys_) return spend(fresh);
    found = buckets_.emplace(std::string(key), fresh).first;
  }
  refill(found->second, now);
  return spend(found->second);
}

size_t RateLimiter::keys() const {
  const MutexLock lock(mu_);
  return buckets_.size();
}

}  // namespace allot::server
