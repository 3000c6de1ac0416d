// Clock: the only way code outside app/ learns the time.
//
// Contract: pure layers never hold a Clock; they receive `now` as an argument.
// Edges (server, executors) receive a Clock by reference from app/. ManualClock
// is for tests and simulations: time moves only when told to. Implementations
// must be safe to call from several threads.
#pragma once

#include <atomic>

#include "base/time.h"

namespace allot {

class Clock {
 public:
  virtual ~Clock() = default;
  [[nodiscard]] virtual Timestamp now() const = 0;
};

// Wall-clock time since the Unix epoch.
class SystemClock final : public Clock {
 public:
  [[nodiscard]] Timestamp now() const override;
};

// A clock that only moves when advanced; never goes backwards.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(Timestamp start = Timestamp::epoch()) : now_ms_(start.ms()) {}
  [[nodiscard]] Timestamp now() const override { return Timestamp::from_millis(now_ms_.load()); }
  // REQUIRES: by >= 0.
  void advance(Duration by);
  // REQUIRES: to >= now().
  void set(Timestamp to);

 private:
  std::atomic<int64_t> now_ms_;
};

}  // namespace allot
