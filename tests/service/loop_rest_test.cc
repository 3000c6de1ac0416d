// allotd's admission loop on its own thread (AdmissionLoop::start()): how it
// rests between passes. The rest is real time, so this test runs on it.
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

using SteadyClock = std::chrono::steady_clock;

class LoopRestTest : public ControlPlaneTest {
 protected:
  LoopRestTest() {
    run_loop_thread_ = true;
    restart();
  }
  ~LoopRestTest() override {
    executor_.after_launch = nullptr;
    plane_.reset();  // the loop's thread ends before the executor's hook goes
  }
  LoopRestTest(const LoopRestTest&) = delete;
  LoopRestTest& operator=(const LoopRestTest&) = delete;
};

// A pass whose launch took 1.5 s (the fork of a big process on a loaded
// machine) is no reason to rest 1.5 s: the exit of a pod that ended at once
// is applied right after, and the capacity it held is free again. Before,
// the loop rested as long as the whole pass, launches included.
TEST_F(LoopRestTest, TheLaunchesOfAPassAreNotWorkToRestAfter) {
  apply_policy();
  std::atomic<int64_t> exit_reported_ns{0};
  executor_.after_launch = [this, &exit_reported_ns](const WorkloadLaunch& launch) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // the slow fork
    for (const PlacedPod& pod : launch.pods) {
      plane_->on_pod_event(exited(launch.workload.value(), pod.index, 0, 0, false));
    }
    exit_reported_ns = SteadyClock::now().time_since_epoch().count();
  };
  submit(workload_yaml("short", "research", 1), "research");
  const SteadyClock::time_point deadline = SteadyClock::now() + std::chrono::seconds(20);
  while (phase("research", "short") != "Succeeded" && SteadyClock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const auto seen = SteadyClock::now().time_since_epoch().count();
  ASSERT_EQ(phase("research", "short"), "Succeeded");
  ASSERT_NE(exit_reported_ns.load(), 0);
  const auto applied_after = std::chrono::nanoseconds(seen - exit_reported_ns.load());
  EXPECT_LT(applied_after, std::chrono::milliseconds(1000))
      << "the exit waited " << applied_after.count() / 1'000'000 << " ms";
}

}  // namespace
}  // namespace allot::testing
