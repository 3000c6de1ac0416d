#include "app/usage_reconciler.h"

#include <chrono>
#include <string>

namespace allot::app {

UsageReconciler::UsageReconciler(ControlPlane& plane, Duration interval, Logger& logger)
    : plane_(plane), interval_(interval), logger_(logger) {
  thread_ = std::thread([this] { run(); });
}

UsageReconciler::~UsageReconciler() { stop(); }

void UsageReconciler::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void UsageReconciler::run() {
  for (;;) {
    {
      std::unique_lock lock(mu_);
      if (wake_.wait_for(lock, std::chrono::milliseconds(interval_.ms()),
                         [this] { return stopping_; })) {
        return;
      }
    }
    const Result<size_t> made = plane_.reconcile_usage_with_backend();
    if (!made.ok()) {
      logger_.warn("usage reconciliation with the backend's accounting failed",
                   {{"error", made.status().to_string()}});
    } else if (*made > 0) {
      logger_.info("metering adjusted to the backend's accounting",
                   {{"adjustments", std::to_string(*made)}});
    }
  }
}

}  // namespace allot::app
