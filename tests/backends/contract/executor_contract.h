// The Executor port's contract (backends/executor.h) as one suite that every
// backend must pass: instantiate it with a factory for the backend under test
// (INSTANTIATE_TEST_SUITE_P(Name, ExecutorContract, Values(factory))).
// Backends: the local executor (local_executor_contract_test.cc) and the
// simulator's virtual executor (virtual_executor_contract_test.cc). A case
// calls settle() where a real backend's time would pass by itself.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/executor.h"

namespace allot::testing {

inline constexpr std::chrono::seconds kEventDeadline{20};

// Keeps every event; a test waits for a condition with a deadline.
class EventLog final : public PodEventSink {
 public:
  void on_pod_event(const PodEvent& event) override {
    std::lock_guard lock(mu_);
    events_.push_back(event);
    changed_.notify_all();
  }
  std::vector<PodEvent> events() {
    std::lock_guard lock(mu_);
    return events_;
  }
  // Waits until `count` kExited events of `workload` came; false after the deadline.
  bool wait_for_exits(WorkloadId workload, size_t count) {
    std::unique_lock lock(mu_);
    return changed_.wait_for(lock, kEventDeadline, [&] {
      size_t n = 0;
      for (const PodEvent& e : events_) {
        n += e.pod.workload == workload && e.phase == PodPhase::kExited ? 1 : 0;
      }
      return n >= count;
    });
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  std::vector<PodEvent> events_;
};

// The backend under test, made for one test with its sink.
struct ExecutorUnderTest {
  std::shared_ptr<void> keep_alive;  // what the executor needs to outlive it
  Executor* executor = nullptr;
  // A backend on virtual time: advances it until nothing more is due. Empty
  // for a backend whose time passes by itself.
  std::function<void()> settle;
};
using ExecutorFactory = std::function<ExecutorUnderTest(PodEventSink& sink)>;

class ExecutorContract : public ::testing::TestWithParam<ExecutorFactory> {
 protected:
  void SetUp() override { made_ = GetParam()(events_); }
  void TearDown() override { made_ = {}; }
  Executor& executor() { return *made_.executor; }
  void settle() {
    if (made_.settle) made_.settle();
  }

  // A workload of `pods` pods on node-0, each running `command`.
  static WorkloadLaunch workload(uint64_t id, int32_t pods, std::vector<std::string> command) {
    WorkloadLaunch launch;
    launch.workload = WorkloadId(id);
    launch.name = "job-" + std::to_string(id);
    launch.namespace_name = "contract";
    launch.team = TeamId("contract");
    launch.command = std::move(command);
    for (int32_t i = 0; i < pods; ++i) launch.pods.push_back({i, NodeId("node-0"), {}, {}});
    return launch;
  }
  std::vector<PodEvent> events_of(WorkloadId workload, PodPhase phase) {
    std::vector<PodEvent> out;
    for (const PodEvent& e : events_.events()) {
      if (e.pod.workload == workload && e.phase == phase) out.push_back(e);
    }
    return out;
  }

  EventLog events_;
  ExecutorUnderTest made_;
};

}  // namespace allot::testing
