// ExitRelay: allotd's pod-event sink between the executor and the control
// plane. The executor is built first and its supervisor thread reports exits
// until it is gone; the plane is built after it and destroyed before it.
// Contract: events reach the target set last, or nowhere while none is set;
// set_target() waits for a report in flight, so once set_target(nullptr)
// returns the old target is never called again. Thread-safe.
#pragma once

#include <mutex>

#include "backends/executor.h"

namespace allot::app {

// Forwards pod events to the control plane once set_target() names it; the
// plane is detached (set_target(nullptr)) before it is destroyed.
class ExitRelay final : public PodEventSink {
 public:
  void on_pod_event(const PodEvent& event) override {
    std::lock_guard lock(mu_);
    if (target_ != nullptr) target_->on_pod_event(event);
  }
  void on_backend_job(WorkloadId workload) override {
    std::lock_guard lock(mu_);
    if (target_ != nullptr) target_->on_backend_job(workload);
  }
  void set_target(PodEventSink* target) {
    std::lock_guard lock(mu_);
    target_ = target;
  }

 private:
  std::mutex mu_;
  PodEventSink* target_ = nullptr;
};

// Detaches the relay from the plane when it goes (declared after the plane).
struct RelayDetach {
  ExitRelay& relay;
  ~RelayDetach() { relay.set_target(nullptr); }
};

}  // namespace allot::app
