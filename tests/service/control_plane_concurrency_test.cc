// The control plane under concurrent changes: a scheduling cycle plans
// without the writer lock and drops a plan that went stale meanwhile
// (admission_loop.h); cancels, deletes and node actions answer only once
// stored, hold no lock while they wait, and their pods are stopped in the
// order the changes were made (cluster_state.h, commit_pipeline.h).
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

// kTwoTeamPolicy with no grace period for low priority work: a preempted
// victim's capacity is its beneficiary's in the same plan.
std::string policy_without_low_grace() {
  std::string policy = kTwoTeamPolicy;
  const size_t low = policy.find("metadata: {name: low}");
  policy.replace(policy.find("preemptionGracePeriod: 30s", low), 26, "preemptionGracePeriod: 0s");
  return policy;
}

// A preemption in the making: research's `sweep` (both nodes' GPUs) runs,
// prod's high-priority `urgent` is pending and will preempt it.
class PreemptionWhilePlanningTest : public ControlPlaneTest {
 protected:
  // The id of `sweep`.
  uint64_t sweep_running_then_urgent_submitted() {
    apply_policy(policy_without_low_grace());
    const uint64_t sweep = submit(workload_yaml("sweep", "research", 8, 2), "research");
    plane_->loop().run_once();
    plane_->loop().run_once();
    EXPECT_EQ(phase("research", "sweep"), "Running");
    submit(workload_yaml("urgent", "prod", 8, 1, "high"), "prod");
    return sweep;
  }
};

TEST_F(ControlPlaneTest, APlanThatAdmitsWorkCancelledWhilePlanningIsPlannedAgain) {
  apply_policy();
  submit(workload_yaml("a", "prod", 8), "prod");
  const uint64_t b = submit(workload_yaml("b", "prod", 8), "prod");
  int plans = 0;
  after_planning_ = [&] {
    if (++plans == 1) {
      EXPECT_TRUE(calls_->cancel_workload("prod", "a").ok());
    }
  };

  plane_->loop().run_once();

  EXPECT_EQ(plans, 2) << "the plan admitting the cancelled workload was applied";
  EXPECT_EQ(phase("prod", "a"), "Cancelled");
  EXPECT_EQ(phase("prod", "b"), "Admitted");
  ASSERT_EQ(executor_.launches.size(), 1u);
  EXPECT_EQ(executor_.launches[0].workload_id, b);
}

TEST_F(ControlPlaneTest, APlanOntoANodeCordonedWhilePlanningIsNotApplied) {
  apply_policy();
  submit(workload_yaml("wide", "prod", 8, 2), "prod");  // both nodes
  int plans = 0;
  after_planning_ = [&] {
    if (++plans == 1) {
      EXPECT_TRUE(calls_->node_action("pool-0", NodeAction::kCordon).ok());
    }
  };

  plane_->loop().run_once();

  EXPECT_EQ(plans, 2);
  EXPECT_EQ(phase("prod", "wide"), "Pending");
  EXPECT_TRUE(executor_.launches.empty()) << "launched on " << executor_.launches[0].node;
}

// The victim of a preemption without grace is cancelled while the plan is
// made: it stops with its own grace and keeps its GPUs until its pods exit,
// so the beneficiary must wait instead of taking the same GPUs.
TEST_F(PreemptionWhilePlanningTest, APlanWhoseVictimStartedStoppingWhilePlanningIsNotApplied) {
  const uint64_t sweep = sweep_running_then_urgent_submitted();
  int plans = 0;
  after_planning_ = [&] {
    if (++plans == 1) {
      EXPECT_TRUE(calls_->cancel_workload("research", "sweep").ok());
    }
  };

  plane_->loop().run_once();

  EXPECT_EQ(plans, 2);
  EXPECT_EQ(phase("prod", "urgent"), "Pending") << "admitted onto the GPUs of a running victim";
  EXPECT_EQ(executor_.launches.size(), 2u);  // sweep's pods only
  after_planning_ = nullptr;
  exit_pods(sweep, 143, /*stopped=*/true);
  EXPECT_EQ(phase("research", "sweep"), "Cancelled");
  EXPECT_EQ(phase("prod", "urgent"), "Admitted");
}

// Without the cancel, the same plan admits the beneficiary at once: the
// test above is about the stale plan, not about the policy.
TEST_F(PreemptionWhilePlanningTest, APreemptionWithoutGraceAdmitsItsBeneficiaryInTheSamePlan) {
  sweep_running_then_urgent_submitted();

  plane_->loop().run_once();

  EXPECT_EQ(phase("prod", "urgent"), "Admitted");
}

// The victim's pods exit while the plan that preempts it is made (the
// Kueue baseline through allotd: a victim whose exit the loop had not yet
// applied): the exits are applied before the plan is judged, the plan is
// stale, and the next one admits the beneficiary into the freed capacity
// without a preemption.
TEST_F(PreemptionWhilePlanningTest, AVictimWhosePodsExitedWhileThePlanWasMadeIsNotPreempted) {
  const uint64_t sweep = sweep_running_then_urgent_submitted();
  int plans = 0;
  after_planning_ = [&] {
    if (++plans > 1) return;
    for (const RecordedPod& pod : executor_.launches) {
      if (pod.workload_id == sweep) plane_->on_pod_event(exited(sweep, pod.pod_index, 0, 0, false));
    }
  };

  plane_->loop().run_once();

  EXPECT_EQ(plans, 2) << "the plan preempting the exited victim was applied";
  EXPECT_EQ(phase("research", "sweep"), "Succeeded");
  EXPECT_EQ(phase("prod", "urgent"), "Admitted");
  const Result<nlohmann::json> events = calls_->workload_events("research", "sweep");
  ASSERT_TRUE(events.ok());
  for (const auto& event : (*events)["items"]) EXPECT_NE(event["reason"], "Preempting");
}

// A plan that keeps going stale is made holding the writer lock at last, so
// that a stream of changes cannot starve the cycle.
TEST_F(ControlPlaneTest, ACycleWhosePlansKeepGoingStalePlansHoldingTheWriterLock) {
  apply_policy();
  for (int i = 0; i < 4; ++i) submit(workload_yaml("w" + std::to_string(i), "prod", 4), "prod");
  int plans = 0;
  after_planning_ = [&] {
    EXPECT_TRUE(calls_->cancel_workload("prod", "w" + std::to_string(plans++)).ok());
  };

  plane_->loop().run_once();

  EXPECT_EQ(plans, 2) << "the plan made holding the writer lock is not interrupted";
  EXPECT_EQ(phase("prod", "w2"), "Admitted");
  EXPECT_EQ(phase("prod", "w3"), "Admitted");
}

// Issue 10, data loss 5: a cancel answers only once it is stored, and only
// then are the pods told to stop. While it waits for the disk it holds no
// lock: another change is made and queued behind it meanwhile (they share a
// group commit), where it used to wait for the first one's fsync.
TEST_F(ControlPlaneTest, ACancelAnswersOnlyOnceStoredAndHoldsNoLockWhileItWaits) {
  apply_policy();
  submit(workload_yaml("a", "prod", 1), "prod");
  plane_->loop().run_once();
  plane_->loop().run_once();
  ASSERT_EQ(phase("prod", "a"), "Running");
  const size_t before = store_.entered();
  store_.close();
  std::atomic<bool> answered{false};
  std::thread canceller([&] {
    EXPECT_TRUE(calls_->cancel_workload("prod", "a").ok());
    answered = true;
  });
  store_.wait_until_entered(before + 1);  // changed, its commit held
  std::thread cordoner(
      [&] { EXPECT_TRUE(calls_->node_action("pool-1", NodeAction::kCordon).ok()); });

  EXPECT_TRUE(store_.wait_until_entered_for(before + 2, std::chrono::seconds(10)))
      << "the cordon waited for the cancel's commit";
  EXPECT_FALSE(answered.load()) << "answered before the cancel was stored";
  EXPECT_EQ(executor_.stop_count(), 0u) << "pods stopped before the cancel was stored";
  store_.open();
  canceller.join();
  cordoner.join();

  EXPECT_EQ(executor_.stop_count(), 1u);
  restart();
  EXPECT_EQ(phase("prod", "a"), "Cancelled");
}

// A launch decided by the loop and a stop decided by a cancel right after it
// reach the executor in that order, whichever thread carries them out.
TEST_F(ControlPlaneTest, AStopNeverOvertakesTheLaunchItStops) {
  apply_policy();
  // The metering heartbeat is stored on the loop's first pass (and then every
  // 10 s of the manual clock, which stands still): written now, so that the
  // next commit the loop makes is the admission.
  plane_->loop().run_once();
  const uint64_t uid = submit(workload_yaml("a", "prod", 1), "prod");
  const size_t before = store_.entered();
  store_.close();
  std::thread loop([&] { plane_->loop().run_once(); });
  store_.wait_until_entered(before + 1);  // admitted, its commit held
  std::thread canceller([&] { EXPECT_TRUE(calls_->cancel_workload("prod", "a").ok()); });
  store_.wait_until_entered(before + 2);  // the cancel queued behind it
  store_.open();
  canceller.join();
  loop.join();

  const std::string id = std::to_string(uid);
  EXPECT_EQ(executor_.calls, (std::vector<std::string>{"launch " + id, "stop " + id}));
}

// Submits, cancels, deletes and cycles from several threads: every
// acknowledged cancel and delete holds after a restart.
TEST_F(ControlPlaneTest, ConcurrentSubmitsCancelsAndCyclesKeepEveryAcknowledgedChange) {
  apply_policy();
  constexpr int kClients = 4;
  constexpr int kEach = 20;
  std::atomic<bool> done{false};
  std::thread loop([&] {
    while (!done.load()) plane_->loop().run_once();
  });
  std::vector<std::vector<std::string>> cancelled(kClients);
  std::vector<std::vector<std::string>> deleted(kClients);
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      for (int i = 0; i < kEach; ++i) {
        const std::string name = "c" + std::to_string(c) + "-" + std::to_string(i);
        if (calls_->create_workload("prod", workload_yaml(name, "prod", 1)).ok() &&
            calls_->cancel_workload("prod", name).ok()) {
          cancelled[c].push_back(name);
        }
        const std::string gone = name + "-d";
        if (calls_->create_workload("prod", workload_yaml(gone, "prod", 1)).ok() &&
            calls_->delete_workload("prod", gone).ok()) {
          deleted[c].push_back(gone);
        }
      }
    });
  }
  for (std::thread& client : clients) client.join();
  done = true;
  loop.join();

  restart();
  for (int c = 0; c < kClients; ++c) {
    EXPECT_EQ(cancelled[c].size(), static_cast<size_t>(kEach));
    EXPECT_EQ(deleted[c].size(), static_cast<size_t>(kEach));
    for (const std::string& name : cancelled[c]) EXPECT_EQ(phase("prod", name), "Cancelled");
    for (const std::string& name : deleted[c]) {
      EXPECT_EQ(calls_->get_workload("prod", name).status().code(), ErrorCode::kNotFound) << name;
    }
  }
}

}  // namespace
}  // namespace allot::testing
