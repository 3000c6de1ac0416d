// DurableWatermark: how far the changes of the control plane's state are on
// disk, so that a read answers only once everything it saw is stored.
//
// Contract: changes are numbered 1, 2, ... by their writer (one at a time);
// advance(n) says that changes up to n are stored (calls never go back);
// wait_until_stored(n) returns once advance(m >= n) was called. Readers
// number what they saw before they wait, and wait without holding the
// state's lock, so a writer is never held up by them. Thread-safe.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace allot {

class DurableWatermark {
 public:
  void advance(uint64_t stored);
  void wait_until_stored(uint64_t change) const;

  // For tests: returns once `count` readers wait in wait_until_stored().
  void wait_until_waiting(size_t count) const;

 private:
  mutable std::mutex mu_;
  mutable std::condition_variable changed_;
  uint64_t stored_ = 0;
  mutable size_t waiting_ = 0;
};

}  // namespace allot
