// allotd's admission loop with the policy's scheduling.minCycleInterval: a
// change that comes sooner than that after the last cycle waits for it, and
// the changes of that window are planned together (admission_loop.h).
#include <string>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

std::string paced_policy(const std::string& min_interval) {
  std::string policy = kTwoTeamPolicy;
  const std::string plain = "scheduling: {cycle: 1s}";
  policy.replace(policy.find(plain), plain.size(),
                 "scheduling: {cycle: 1s, minCycleInterval: " + min_interval + "}");
  return policy;
}

// 100 ms after the cycle that admitted prod's first job, its second comes:
// it waits until 500 ms after that cycle, and is then planned together with
// research's, which came meanwhile.
TEST_F(ControlPlaneTest, AChangeSoonerThanMinCycleIntervalWaitsForItThenIsPlanned) {
  apply_policy(paced_policy("500ms"));
  submit(workload_yaml("first", "prod", 4), "prod");
  plane_->loop().run_once();  // the cycle at t0 admits it
  ASSERT_EQ(phase("prod", "first"), "Admitted");
  const Timestamp t0 = clock_.now();

  clock_.advance(Duration::millis(100));
  submit(workload_yaml("second", "prod", 4), "prod");
  const Timestamp due = plane_->loop().run_once();
  EXPECT_EQ(phase("prod", "second"), "Pending") << "100 ms after the last cycle";
  EXPECT_EQ(due, t0 + Duration::millis(500)) << "the owed cycle is the pass's deadline";

  clock_.advance(Duration::millis(300));
  submit(workload_yaml("third", "research", 4), "research");
  plane_->loop().run_once();
  EXPECT_EQ(phase("prod", "second"), "Pending") << "400 ms after the last cycle";
  EXPECT_EQ(phase("research", "third"), "Pending");

  clock_.set(due);
  plane_->loop().run_once();  // one cycle plans both
  EXPECT_EQ(phase("prod", "second"), "Admitted");
  EXPECT_EQ(phase("research", "third"), "Admitted");
}

// Without minCycleInterval (the default) every change is planned at once.
TEST_F(ControlPlaneTest, WithoutMinCycleIntervalAChangeIsPlannedAtOnce) {
  apply_policy();
  submit(workload_yaml("first", "prod", 4), "prod");
  plane_->loop().run_once();
  ASSERT_EQ(phase("prod", "first"), "Admitted");

  clock_.advance(Duration::millis(1));
  submit(workload_yaml("second", "prod", 4), "prod");
  plane_->loop().run_once();
  EXPECT_EQ(phase("prod", "second"), "Admitted");
}

// An exit is a change like a submit: its capacity is planned at the owed
// cycle, together with a submit that came after it.
TEST_F(ControlPlaneTest, AnExitSoonerThanMinCycleIntervalIsPlannedWithTheSubmitsAfterIt) {
  apply_policy(paced_policy("500ms"));
  const uint64_t big = submit(workload_yaml("big", "prod", 8, 2), "prod");
  plane_->loop().run_once();  // admitted: both nodes
  plane_->loop().run_once();  // (the pass with its launch reports is a change too)
  clock_.advance(Duration::millis(500));
  plane_->loop().run_once();
  ASSERT_EQ(phase("prod", "big"), "Running");
  const Timestamp last = clock_.now();

  clock_.advance(Duration::millis(50));
  exit_pods(big, 0);  // reported and applied; its capacity waits for the cycle
  EXPECT_EQ(phase("prod", "big"), "Succeeded");
  submit(workload_yaml("next", "research", 8), "research");
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "next"), "Pending");

  clock_.set(last + Duration::millis(500));
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "next"), "Admitted");
}

}  // namespace
}  // namespace allot::testing
