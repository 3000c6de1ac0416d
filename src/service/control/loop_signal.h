// LoopSignal: how the rooms of the control plane wake the admission loop, and
// how the loop rests between passes.
//
// Contract:
// - wake(kSubmit) says a new workload came; wake(kChange) says existing state
//   changed in a way that can free or move capacity (a pod exit, a cancel, a
//   node or policy change). Both mark the loop dirty (a cycle is due).
// - A resting loop is woken only by wakes that end its current rest (see
//   rest_after_work()): a submit does not wake a loop that would only rest
//   again, which would cost a context switch per submit.
// - take_flags() returns whether a cycle was asked for and clears the flags;
//   the loop calls it before it drains the pod reports, so that a report that
//   comes after the drain wakes the next pass.
// - stop() ends every rest at once, and every later one.
// Thread-safe.
#pragma once

#include <chrono>
#include <cstdint>

#include "base/mutex.h"
#include "base/time.h"

namespace allot {

class LoopSignal {
 public:
  enum class Wake : uint8_t { kSubmit, kChange };

  void wake(Wake why = Wake::kChange) ALLOT_EXCLUDES(mu_);
  void stop() ALLOT_EXCLUDES(mu_);

  // Whether a wake came since the last call; clears it.
  bool take_flags() ALLOT_EXCLUDES(mu_);

  // The loop's rest after a pass that took `worked`: as long as the pass
  // whatever comes, then up to `extra` more while only submits come. Returns
  // false once stopping.
  bool rest_after_work(std::chrono::nanoseconds worked, std::chrono::nanoseconds extra)
      ALLOT_EXCLUDES(mu_);
  // Then waits up to `timeout` for any wake. Returns false once stopping.
  bool wait_for_wake(Duration timeout) ALLOT_EXCLUDES(mu_);

 private:
  // Which wakes end the loop's current wait.
  enum class Listen : uint8_t { kStopOnly, kChanges, kAnyWake };

  Mutex mu_;
  CondVar cv_;
  bool dirty_ ALLOT_GUARDED_BY(mu_) = true;
  bool changed_ ALLOT_GUARDED_BY(mu_) = false;  // a kChange came since the last pass
  bool stopping_ ALLOT_GUARDED_BY(mu_) = false;
  Listen listening_ ALLOT_GUARDED_BY(mu_) = Listen::kStopOnly;
};

}  // namespace allot
