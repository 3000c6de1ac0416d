#include "service/control/durable_watermark.h"

#include <algorithm>

namespace allot {

void DurableWatermark::advance(uint64_t stored) {
  {
    std::lock_guard lock(mu_);
    if (stored <= stored_) return;
    stored_ = stored;
  }
  changed_.notify_all();
}

void DurableWatermark::wait_until_stored(uint64_t change) const {
  std::unique_lock lock(mu_);
  if (stored_ >= change) return;
  ++waiting_;
  changed_.notify_all();  // wait_until_waiting() listens too
  changed_.wait(lock, [&] { return stored_ >= change; });
  --waiting_;
}

void DurableWatermark::wait_until_waiting(size_t count) const {
  std::unique_lock lock(mu_);
  changed_.wait(lock, [&] { return waiting_ >= count; });
}

}  // namespace allot
