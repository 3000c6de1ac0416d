// The control plane under concurrent changes: cancels, deletes and node
// actions answer only once stored, hold no lock while they wait, and their
// pods are stopped in the order the changes were made (cluster_state.h,
// commit_pipeline.h, action_runner.h).
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

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
