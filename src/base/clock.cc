#include "base/clock.h"

#include <chrono>

#include "base/check.h"

namespace allot {

Timestamp SystemClock::now() const {
  auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
  return Timestamp::from_millis(
      std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch).count());
}

void ManualClock::advance(Duration by) {
  ALLOT_CHECK(by.ms() >= 0);
  now_ms_ += by.ms();
}

void ManualClock::set(Timestamp to) {
  ALLOT_CHECK(to.ms() >= now_ms_.load());
  now_ms_ = to.ms();
}

}  // namespace allot
