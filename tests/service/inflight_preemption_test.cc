// Preemptions in flight in allotd's control plane (DESIGN.md section 3), with
// a recording executor and a manual clock: a victim that is still stopping
// is capacity on its way to its beneficiary. It is not counted twice (no
// second victim for the same need), what one victim already freed is not
// given to anyone else meanwhile, and it is released once the beneficiary
// no longer waits.
#include <string>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

class InflightPreemptionTest : public ControlPlaneTest {
 protected:
  // research runs `base` (8 GPUs, its nominal) on one node and, borrowing,
  // `b1` and `b2` (4 GPUs each) on the other; then prod's `urgent` (8 GPUs,
  // prod's nominal) reclaims the node: b1 and b2 stop with 30s of grace.
  void SetUp() override {
    apply_policy();
    submit(workload_yaml("base", "research", 8), "research");
    plane_->loop().run_once();
    clock_.advance(Duration::seconds(60));
    b1_ = submit(workload_yaml("b1", "research", 4), "research");
    b2_ = submit(workload_yaml("b2", "research", 4), "research");
    plane_->loop().run_once();
    plane_->loop().run_once();  // the launch reports arrive
    ASSERT_EQ(phase("research", "b1"), "Running");
    ASSERT_EQ(phase("research", "b2"), "Running");
    clock_.advance(Duration::seconds(60));
    submit(workload_yaml("urgent", "prod", 8, 1, "high"), "prod");
    plane_->loop().run_once();
    ASSERT_EQ(executor_.stop_count(), 2u);
    ASSERT_EQ(phase("prod", "urgent"), "Pending");
  }

  // A pass of the loop `seconds` later, with a cycle due.
  void later(int seconds) {
    clock_.advance(Duration::seconds(seconds));
    plane_->loop().run_once();
  }

  uint64_t b1_ = 0;
  uint64_t b2_ = 0;
};

TEST_F(InflightPreemptionTest, StoppingVictimsAreNotCountedTwice) {
  for (int pass = 0; pass < 5; ++pass) later(2);  // within the grace period
  EXPECT_EQ(executor_.stop_count(), 2u) << "a second victim for the same need";
  EXPECT_EQ(phase("prod", "urgent"), "Pending");
  const nlohmann::json urgent = *calls_->get_workload("prod", "urgent");
  EXPECT_EQ(urgent["status"]["explanation"]["reason"], "WaitingForPreemption");
}

TEST_F(InflightPreemptionTest, CapacityOneVictimFreedWaitsForTheBeneficiary) {
  exit_pods(b1_, 143, /*stopped=*/true);
  EXPECT_EQ(phase("research", "b1"), "Preempted");
  later(1);
  // b1 may not borrow back the 4 GPUs it freed: they are urgent's.
  EXPECT_EQ(phase("research", "b1"), "Preempted");
  EXPECT_EQ(phase("prod", "urgent"), "Pending");
  EXPECT_EQ(executor_.stop_count(), 2u);

  exit_pods(b2_, 143, /*stopped=*/true);
  EXPECT_EQ(phase("prod", "urgent"), "Admitted");
  EXPECT_EQ(executor_.stop_count(), 2u) << "urgent took a victim for a need already met";
}

TEST_F(InflightPreemptionTest, CapacityIsReleasedWhenTheBeneficiaryIsCancelled) {
  exit_pods(b1_, 143, /*stopped=*/true);
  ASSERT_TRUE(calls_->cancel_workload("prod", "urgent").ok());
  later(1);
  // Nothing waits for the GPUs b1 freed: it borrows them again. b2 keeps its
  // own until it has stopped.
  EXPECT_EQ(phase("research", "b1"), "Admitted");
  EXPECT_EQ(executor_.stop_count(), 2u);
}

}  // namespace
}  // namespace allot::testing
