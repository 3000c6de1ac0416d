// ExitRecorder: a PodEventSink for tests that keeps every exit and lets a test
// wait for one with a deadline (a condition variable, never a fixed sleep).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "backends/local/pod_process.h"

namespace allot::local::testing {

inline constexpr std::chrono::seconds kExitDeadline{20};

class ExitRecorder : public PodEventSink {
 public:
  // Keeps exits (as the local backend's PodExit) and counts starts.
  void on_pod_event(const PodEvent& event) override {
    std::lock_guard lock(mu_);
    if (event.phase == PodPhase::kRunning) {
      ++started_;
      return;
    }
    exits_.push_back({event.pod.workload.value(), event.pod.index, event.exit_code, event.signal,
                      event.stopped});
    launch_errors_.push_back(event.launch_error);
    changed_.notify_all();
  }

  // kRunning events so far.
  int started() {
    std::lock_guard lock(mu_);
    return started_;
  }
  // The launch error of each exit, in order ("" for pods that ran).
  std::vector<std::string> launch_errors() {
    std::lock_guard lock(mu_);
    return launch_errors_;
  }

  // The exit of (workload, pod) once it has come, or nullopt after `limit`.
  std::optional<PodExit> wait_for(uint64_t workload_id, int32_t pod_index,
                                  std::chrono::milliseconds limit = kExitDeadline) {
    std::unique_lock lock(mu_);
    std::optional<PodExit> found;
    changed_.wait_for(lock, limit, [&] {
      found = find_locked(workload_id, pod_index);
      return found.has_value();
    });
    return found;
  }

  // How many exits of (workload, pod) arrived.
  int count(uint64_t workload_id, int32_t pod_index) {
    std::lock_guard lock(mu_);
    int n = 0;
    for (const PodExit& exit : exits_) {
      n += exit.workload_id == workload_id && exit.pod_index == pod_index ? 1 : 0;
    }
    return n;
  }

  size_t total() {
    std::lock_guard lock(mu_);
    return exits_.size();
  }

 private:
  std::optional<PodExit> find_locked(uint64_t workload_id, int32_t pod_index) const {
    for (const PodExit& exit : exits_) {
      if (exit.workload_id == workload_id && exit.pod_index == pod_index) return exit;
    }
    return std::nullopt;
  }

  std::mutex mu_;
  std::condition_variable changed_;
  std::vector<PodExit> exits_;
  std::vector<std::string> launch_errors_;
  int started_ = 0;
};

}  // namespace allot::local::testing
