#include "service/control/loop_signal.h"

#include <chrono>

namespace allot {
void LoopSignal::wake(Wake why) {
  bool notify = false;
  {
    MutexLock lock(mu_);
    dirty_ = true;
    if (why == Wake::kChange) changed_ = true;
    notify =
        listening_ == Listen::kAnyWake || (why == Wake::kChange && listening_ == Listen::kChanges);
  }
  if (notify) cv_.notify_all();
}

void LoopSignal::stop() {
  {
    MutexLock lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
}

bool LoopSignal::take_flags() {
  MutexLock lock(mu_);
  const bool dirty = dirty_;
  dirty_ = false;
  changed_ = false;
  return dirty;
}

bool LoopSignal::rest_after_work(std::chrono::nanoseconds worked, std::chrono::nanoseconds extra) {
  using SteadyClock = std::chrono::steady_clock;
  const SteadyClock::time_point rested = SteadyClock::now() + worked;
  MutexLock lock(mu_);
  listening_ = Listen::kStopOnly;
  while (!stopping_ && cv_.wait_until(mu_, rested)) {
  }
  listening_ = Listen::kChanges;
  const SteadyClock::time_point longer = rested + extra;
  while (!stopping_ && !changed_ && cv_.wait_until(mu_, longer)) {
  }
  listening_ = Listen::kStopOnly;
  return !stopping_;
}

bool LoopSignal::wait_for_wake(Duration timeout) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout.ms());
  MutexLock lock(mu_);
  listening_ = Listen::kAnyWake;
  while (!dirty_ && !stopping_ && cv_.wait_until(mu_, deadline)) {
  }
  listening_ = Listen::kStopOnly;
  return !stopping_;
}

}  // namespace allot
