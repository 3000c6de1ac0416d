// ControlPlane use cases, with a recording executor and a manual clock: the
// workload lifecycle, preemption, cancel, node health, restart, bad input.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

TEST_F(ControlPlaneTest, SubmittedWorkloadRunsAndSucceedsWithEveryTransitionRecorded) {
  apply_policy();
  const uint64_t uid = submit(workload_yaml("train", "prod", 4, 2), "prod");

  plane_->loop().run_once();  // admits and launches
  ASSERT_EQ(executor_.launches.size(), 2u);
  EXPECT_EQ(executor_.launches[0].gpus.size() + executor_.launches[1].gpus.size(), 8u);
  EXPECT_EQ(executor_.launches[0].team, "prod");
  EXPECT_EQ(phase("prod", "train"), "Admitted");
  plane_->loop().run_once();  // the launch reports arrive
  EXPECT_EQ(phase("prod", "train"), "Running");

  exit_pods(uid, 0);

  EXPECT_EQ(phase("prod", "train"), "Succeeded");
  EXPECT_EQ(event_types("prod", "train"),
            (std::vector<std::string>{"Pending", "Admitted", "Running", "Succeeded"}));
  const Result<StoredState> stored = store_.load();
  ASSERT_TRUE(stored.ok());
  ASSERT_EQ(stored->workloads.size(), 1u);
  EXPECT_EQ(stored->workloads[0].phase, WorkloadPhase::kSucceeded);
}

TEST_F(ControlPlaneTest, GpuIndicesOfPodsOnOneNodeNeverOverlap) {
  apply_policy();
  submit(workload_yaml("a", "prod", 3), "prod");
  submit(workload_yaml("b", "prod", 3), "prod");
  plane_->loop().run_once();
  ASSERT_EQ(executor_.launches.size(), 2u);
  std::map<std::string, std::set<int32_t>> used;
  for (const RecordedPod& pod : executor_.launches) {
    for (int32_t gpu : pod.gpus) EXPECT_TRUE(used[pod.node].insert(gpu).second) << gpu;
  }
}

TEST_F(ControlPlaneTest, ReclaimPreemptsTheBorrowerWithItsGraceThenRequeuesIt) {
  apply_policy();
  const uint64_t borrower = submit(workload_yaml("sweep", "research", 8, 2), "research");
  plane_->loop().run_once();
  plane_->loop().run_once();
  ASSERT_EQ(phase("research", "sweep"), "Running");

  submit(workload_yaml("urgent", "prod", 8, 1, "high"), "prod");
  plane_->loop().run_once();

  ASSERT_EQ(executor_.stops.size(), 1u);
  EXPECT_EQ(executor_.stops[0].first, borrower);
  EXPECT_EQ(executor_.stops[0].second, Duration::seconds(30));
  EXPECT_EQ(phase("prod", "urgent"), "Pending");  // waits for the victim to stop

  exit_pods(borrower, 143, /*stopped=*/true);  // requeued, and the cycle admits `urgent`

  EXPECT_EQ(phase("prod", "urgent"), "Admitted");
  const nlohmann::json sweep = *calls_->get_workload("research", "sweep");
  EXPECT_EQ(sweep["status"]["phase"], "Preempted");
  EXPECT_EQ(sweep["status"]["restarts"], 1);
  EXPECT_EQ(sweep["status"]["preemptedBy"], "prod/urgent");
  EXPECT_EQ(sweep["status"]["explanation"]["reason"], "QuotaExhausted");
}

TEST_F(ControlPlaneTest, CancelStopsRunningPodsThenMarksCancelled) {
  apply_policy();
  const uint64_t uid = submit(workload_yaml("job", "prod", 1), "prod");
  plane_->loop().run_once();
  plane_->loop().run_once();

  const Result<nlohmann::json> cancelled = calls_->cancel_workload("prod", "job");
  ASSERT_TRUE(cancelled.ok());
  EXPECT_TRUE((*cancelled)["status"]["stopping"].get<bool>());
  ASSERT_EQ(executor_.stops.size(), 1u);
  exit_pods(uid, 0, /*stopped=*/true);

  EXPECT_EQ(phase("prod", "job"), "Cancelled");
  EXPECT_EQ(calls_->cancel_workload("prod", "job").status().code(), ErrorCode::kFailedPrecondition);
}

TEST_F(ControlPlaneTest, FailedPodStopsTheOthersAndFailsTheWorkloadWithItsExitCode) {
  apply_policy();
  const uint64_t uid = submit(workload_yaml("job", "prod", 1, 3), "prod");
  plane_->loop().run_once();
  plane_->loop().run_once();

  plane_->on_pod_event(exited(uid, 1, 3, 0, false));
  plane_->loop().run_once();
  ASSERT_EQ(executor_.stops.size(), 1u);
  plane_->on_pod_event(exited(uid, 0, 0, 15, true));
  plane_->on_pod_event(exited(uid, 2, 0, 15, true));
  plane_->loop().run_once();

  const nlohmann::json job = *calls_->get_workload("prod", "job");
  EXPECT_EQ(job["status"]["phase"], "Failed");
  EXPECT_EQ(job["status"]["exitCode"], 3);
}

TEST_F(ControlPlaneTest, APodTheBackendLostRequeuesTheWorkloadInsteadOfFailingIt) {
  apply_policy();
  const uint64_t uid = submit(workload_yaml("job", "prod", 1, 2), "prod");
  plane_->loop().run_once();
  plane_->loop().run_once();

  PodEvent lost = exited(uid, 0, 0, 9, false);
  lost.lost = true;  // e.g. Slurm's NODE_FAIL
  plane_->on_pod_event(lost);
  plane_->loop().run_once();
  ASSERT_EQ(executor_.stops.size(), 1u) << "the other pod is stopped";
  plane_->on_pod_event(exited(uid, 1, 0, 15, true));
  plane_->loop().run_once();

  const nlohmann::json job = *calls_->get_workload("prod", "job");
  EXPECT_NE(job["status"]["phase"], "Failed");
  EXPECT_EQ(job["status"]["restarts"], 1);
  const Result<nlohmann::json> events = calls_->workload_events("prod", "job");
  ASSERT_TRUE(events.ok());
  std::vector<std::string> reasons;
  for (const auto& event : (*events)["items"]) reasons.push_back(event["reason"]);
  EXPECT_NE(std::find(reasons.begin(), reasons.end(), "PodLost"), reasons.end());
  EXPECT_NE(std::find(reasons.begin(), reasons.end(), "Evicted"), reasons.end());
  EXPECT_EQ(std::find(reasons.begin(), reasons.end(), "PodFailed"), reasons.end());
}

// The backend ran the job elsewhere than allot placed it (Slurm's NodeList
// differs): accepted, recorded in status.backend and as one Warning event,
// not requeued (slurm_executor.h says why).
TEST_F(ControlPlaneTest, AJobTheBackendRunsElsewhereIsKeptAndRecordedOnce) {
  apply_policy();
  const uint64_t uid = submit(workload_yaml("job", "prod", 1), "prod");
  plane_->loop().run_once();  // admits and launches
  ASSERT_EQ(executor_.launches.size(), 1u);
  const std::string placed = executor_.launches[0].node;
  executor_.set_backend_job(uid, BackendJob{"slurm", "7", "RUNNING", "None", "elsewhere", placed});
  plane_->loop().run_once();  // the start report: the backend's view taken in

  EXPECT_EQ(phase("prod", "job"), "Running");
  EXPECT_TRUE(executor_.stops.empty()) << "not requeued";
  const nlohmann::json job = *calls_->get_workload("prod", "job");
  EXPECT_EQ(job["status"]["backend"]["nodes"], "elsewhere");
  EXPECT_EQ(job["status"]["backend"]["placedNodes"], placed);

  executor_.set_backend_job(uid,
                            BackendJob{"slurm", "7", "COMPLETED", "None", "elsewhere", placed});
  exit_pods(uid, 0);
  EXPECT_EQ(phase("prod", "job"), "Succeeded");
  const Result<nlohmann::json> events = calls_->workload_events("prod", "job");
  ASSERT_TRUE(events.ok());
  int64_t elsewhere = 0;
  for (const auto& event : (*events)["items"]) {
    if (event["reason"] == "PlacedElsewhere") {
      ++elsewhere;
      EXPECT_NE(event["message"].get<std::string>().find("job 7 on elsewhere"), std::string::npos)
          << event;
      EXPECT_EQ(event["type"], "Warning");
    }
  }
  EXPECT_EQ(elsewhere, 1) << "once per job: " << *events;
}

TEST_F(ControlPlaneTest, WorkloadPastItsMaxRuntimeIsStoppedAndFails) {
  apply_policy();
  const uint64_t uid =
      submit(workload_yaml("job", "prod", 1, 1, "low", "  maxRuntimeSeconds: 60\n"), "prod");
  plane_->loop().run_once();
  plane_->loop().run_once();
  clock_.advance(Duration::seconds(61));
  plane_->loop().run_once();
  ASSERT_EQ(executor_.stops.size(), 1u);
  exit_pods(uid, 0, true);
  const nlohmann::json job = *calls_->get_workload("prod", "job");
  EXPECT_EQ(job["status"]["phase"], "Failed");
  EXPECT_EQ(job["status"]["reason"], "MaxRuntimeExceeded");
}

TEST_F(ControlPlaneTest, UnhealthyNodeIsCordonedAndItsWorkRequeuedAtItsPosition) {
  apply_policy();
  const uint64_t uid = submit(workload_yaml("job", "prod", 8), "prod");
  plane_->loop().run_once();
  plane_->loop().run_once();
  const std::string node = executor_.launches.at(0).node;

  health_.unhealthy[node] = "disk full";
  clock_.advance(Duration::seconds(10));
  plane_->loop().run_once();  // health check, eviction
  const Result<nlohmann::json> view = calls_->get_node(node);
  ASSERT_TRUE(view.ok());
  EXPECT_FALSE((*view)["healthy"].get<bool>());
  EXPECT_TRUE((*view)["cordoned"].get<bool>());
  ASSERT_EQ(executor_.stops.size(), 1u);
  EXPECT_EQ(executor_.stops[0].second, Duration());

  exit_pods(uid, 0, true);  // requeued, and readmitted in the same pass
  const nlohmann::json job = *calls_->get_workload("prod", "job");
  EXPECT_EQ(job["status"]["restarts"], 1);
  EXPECT_EQ(job["status"]["phase"], "Admitted");
  EXPECT_NE(job["status"]["podSets"][0]["pods"][0]["node"], node);
  EXPECT_EQ(job["status"]["createdAt"], job["status"]["queuedAt"]);
}

TEST_F(ControlPlaneTest, ANodeThatTurnsUnhealthyAndBackIsLoggedWithItsReason) {
  apply_policy();
  submit(workload_yaml("job", "prod", 8), "prod");
  plane_->loop().run_once();
  plane_->loop().run_once();
  const std::string node = executor_.launches.at(0).node;
  logger_.clear();

  health_.unhealthy[node] = "disk full";
  clock_.advance(Duration::seconds(10));
  plane_->loop().run_once();
  health_.unhealthy.clear();
  clock_.advance(Duration::seconds(10));
  plane_->loop().run_once();

  const std::vector<LogEntry> entries = logger_.entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].level, LogLevel::kWarn);
  EXPECT_EQ(entries[0].field("node"), node);
  EXPECT_EQ(entries[0].field("reason"), "disk full");
  EXPECT_EQ(entries[1].level, LogLevel::kInfo);
  EXPECT_EQ(entries[1].field("node"), node);
}

TEST_F(ControlPlaneTest, DrainRequeuesWorkAfterItsGracePeriod) {
  apply_policy();
  const uint64_t uid = submit(workload_yaml("job", "prod", 8), "prod");
  plane_->loop().run_once();
  plane_->loop().run_once();
  const std::string node = executor_.launches.at(0).node;

  ASSERT_TRUE(calls_->node_action(node, NodeAction::kDrain).ok());
  ASSERT_EQ(executor_.stops.size(), 1u);
  EXPECT_EQ(executor_.stops[0].second, Duration::seconds(30));
  exit_pods(uid, 143, true);
  const nlohmann::json job = *calls_->get_workload("prod", "job");
  EXPECT_EQ(job["status"]["phase"], "Admitted");
  EXPECT_NE(job["status"]["podSets"][0]["pods"][0]["node"], node);
}

TEST_F(ControlPlaneTest, RestartRequeuesRunningWorkAndKeepsEverythingElse) {
  apply_policy();
  submit(workload_yaml("running", "prod", 8), "prod");
  submit(workload_yaml("waiting", "prod", 8, 2), "prod");
  plane_->loop().run_once();
  plane_->loop().run_once();
  ASSERT_EQ(phase("prod", "running"), "Running");

  restart();

  const nlohmann::json running = *calls_->get_workload("prod", "running");
  EXPECT_EQ(running["status"]["phase"], "Pending");
  EXPECT_EQ(running["status"]["reason"], "Requeued");
  EXPECT_EQ(running["status"]["restarts"], 1);
  EXPECT_EQ(phase("prod", "waiting"), "Pending");
  const uint64_t next = submit(workload_yaml("after", "prod", 1), "prod");
  EXPECT_EQ(next, 3u);  // uids continue
  ASSERT_EQ(calls_->list_objects("Team")->at("items").size(), 2u);
}

// Issue 10, data loss 5: an acknowledged cancel of running work survives a
// crash within the grace period; recovery honours it instead of requeueing.
TEST_F(ControlPlaneTest, ACancelAcknowledgedBeforeACrashStaysCancelled) {
  apply_policy();
  submit(workload_yaml("job", "prod", 8), "prod");
  plane_->loop().run_once();
  plane_->loop().run_once();
  ASSERT_EQ(phase("prod", "job"), "Running");
  const Result<nlohmann::json> answer = calls_->cancel_workload("prod", "job");
  ASSERT_TRUE(answer.ok()) << answer.status().to_string();
  EXPECT_EQ((*answer)["status"]["stopping"], true);
  EXPECT_EQ((*answer)["status"]["stopReason"], "Cancelled");

  restart();  // before the pods reported their exit

  const nlohmann::json job = *calls_->get_workload("prod", "job");
  EXPECT_EQ(job["status"]["phase"], "Cancelled");
  EXPECT_EQ(job["status"]["restarts"], 0);
  plane_->loop().run_once();
  EXPECT_EQ(phase("prod", "job"), "Cancelled") << "never admitted again";
}

TEST_F(ControlPlaneTest, ADeleteAcknowledgedBeforeACrashStaysDeleted) {
  apply_policy();
  submit(workload_yaml("job", "prod", 8), "prod");
  plane_->loop().run_once();
  plane_->loop().run_once();
  ASSERT_EQ(phase("prod", "job"), "Running");
  ASSERT_TRUE(calls_->delete_workload("prod", "job").ok());
  ASSERT_EQ(phase("prod", "job"), "Running") << "it stays until its pods stop";

  restart();

  EXPECT_EQ(calls_->get_workload("prod", "job").status().code(), ErrorCode::kNotFound);
}

TEST_F(ControlPlaneTest, ListPagesFollowContinueTokensAndFilter) {
  apply_policy();
  for (int i = 0; i < 5; ++i) submit(workload_yaml("w" + std::to_string(i), "prod", 8), "prod");
  plane_->loop().run_once();  // w0 and w1 admitted (16 GPUs, prod borrows 8)

  WorkloadQuery query;
  query.limit = 2;
  std::vector<std::string> names;
  for (int page = 0; page < 5; ++page) {
    const Result<JsonWorkloadPage> result = calls_->list_workloads(query);
    ASSERT_TRUE(result.ok());
    for (const auto& item : nlohmann::json::parse(result->items)) {
      names.push_back(item["metadata"]["name"]);
    }
    if (result->continue_token.empty()) break;
    query.after_uid = std::stoull(result->continue_token);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"w0", "w1", "w2", "w3", "w4"}));

  WorkloadQuery pending;
  pending.phases = {WorkloadPhase::kPending};
  EXPECT_EQ(calls_->list_workloads(pending)->count, 3u);
}

TEST_F(ControlPlaneTest, BadSubmitsAreRefusedAndStoreNothing) {
  apply_policy();
  EXPECT_EQ(calls_->create_workload("ghost", workload_yaml("a", "ghost", 1)).status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(
      calls_->create_workload("prod", workload_yaml("a", "prod", 1, 1, "platinum")).status().code(),
      ErrorCode::kInvalidArgument);
  EXPECT_EQ(calls_->create_workload("prod", workload_yaml("a", "research", 1)).status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(calls_->create_workload("prod", "kind: [").status().code(),
            ErrorCode::kInvalidArgument);
  const Result<std::string> negative = calls_->create_workload(
      "prod",
      "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: n}\nspec: {podSets: "
      "[{count: 1, resources: {gpu: -1}}], command: [x]}\n");
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.status().details().find("resources.gpu"), std::string::npos)
      << negative.status().to_string();
  const Result<std::string> idle = calls_->create_workload(
      "prod",
      "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: idle}\nspec: {podSets: "
      "[{count: 1, resources: {gpu: 1}}]}\n");
  EXPECT_EQ(idle.status().details(), "spec.command");
  submit(workload_yaml("a", "prod", 1), "prod");
  EXPECT_EQ(calls_->create_workload("prod", workload_yaml("a", "prod", 1)).status().code(),
            ErrorCode::kAlreadyExists);
  EXPECT_EQ(store_.load()->workloads.size(), 1u);
}

TEST_F(ControlPlaneTest, ApplyIsAllOrNothingAndDryRunShowsTheDiff) {
  apply_policy();
  const std::string change = R"(
apiVersion: allot/v1
kind: Team
metadata: {name: research}
spec:
  cohort: org
  quota: [{flavor: gpu, resources: {gpu: {nominal: 6}}}]
---
apiVersion: allot/v1
kind: Team
metadata: {name: broken}
spec: {cohort: no-such-cohort}
)";
  const Result<ApplyResult> bad = calls_->apply(change, false);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("no-such-cohort"), std::string::npos)
      << bad.status().to_string();

  const std::string good = change.substr(
      0, change.find("---\napiVersion: allot/v1\nkind: Team\nmetadata: {name: broken}"));
  const Result<ApplyResult> dry = calls_->apply(good, true);
  ASSERT_TRUE(dry.ok()) << dry.status().to_string();
  ASSERT_EQ(dry->changes.size(), 1u);
  EXPECT_EQ(dry->changes[0].action, "configured");
  EXPECT_EQ(dry->changes[0].diff,
            (std::vector<std::string>{"spec.quota[0].resources.gpu.nominal: 8 -> 6"}));
  EXPECT_EQ(
      (*calls_->get_object("Team", "research"))["spec"]["quota"][0]["resources"]["gpu"]["nominal"],
      8);

  ASSERT_TRUE(calls_->apply(good, false).ok());
  EXPECT_EQ(
      (*calls_->get_object("Team", "research"))["spec"]["quota"][0]["resources"]["gpu"]["nominal"],
      6);
}

TEST_F(ControlPlaneTest, TeamWithUnfinishedWorkCannotBeDeleted) {
  apply_policy();
  submit(workload_yaml("a", "research", 1), "research");
  EXPECT_EQ(calls_->delete_object("Team", "research").code(), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(calls_->delete_object("Cohort", "org").code(), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(calls_->delete_object("Team", "nobody").code(), ErrorCode::kNotFound);
}

TEST_F(ControlPlaneTest, TopReportsUsageBorrowedAndLentPerTeam) {
  apply_policy();
  submit(workload_yaml("big", "research", 8, 2), "research");
  plane_->loop().run_once();
  const nlohmann::json top = calls_->top();
  std::map<std::string, nlohmann::json> gpu_rows;
  for (const auto& row : top["teams"]) {
    if (row["resource"] == "gpu") gpu_rows[row["team"]] = row;
  }
  EXPECT_EQ(gpu_rows["research"]["usage"], "16");
  EXPECT_EQ(gpu_rows["research"]["borrowed"], "8");
  EXPECT_EQ(gpu_rows["prod"]["lent"], "8");
  EXPECT_EQ(gpu_rows["prod"]["usage"], "0");
}

TEST_F(ControlPlaneTest, LaunchFailureFailsTheWorkloadWithAWarning) {
  apply_policy();
  executor_.fail_launches = true;
  submit(workload_yaml("job", "prod", 1), "prod");
  plane_->loop().run_once();
  plane_->loop().run_once();
  EXPECT_EQ(phase("prod", "job"), "Failed");
  const std::vector<std::string> types = event_types("prod", "job");
  EXPECT_NE(std::find(types.begin(), types.end(), "Warning"), types.end());
}

TEST_F(ControlPlaneTest, AReadThatSawAChangeAnswersOnlyOnceTheChangeIsStored) {
  apply_policy();
  submit(workload_yaml("a", "prod", 1), "prod");
  store_.close();
  std::thread canceller([this] { EXPECT_TRUE(calls_->cancel_workload("prod", "a").ok()); });
  store_.wait_until_entered(3);  // policy, submit, then the cancel: changed, its commit held
  std::atomic<bool> answered{false};
  std::string seen;
  std::thread reader([&] {
    seen = phase("prod", "a");
    answered = true;
  });
  plane_->wait_until_reads_wait(1);
  EXPECT_FALSE(answered.load()) << "answered before the cancel was stored";
  store_.open();
  canceller.join();
  reader.join();
  EXPECT_EQ(seen, "Cancelled");
}

// Issue 10, crash 1: a submit validated against one policy must not enter the
// live set under another. Here the team it was validated for is deleted while
// its commit is in flight: the delete waits for the submit, then sees the
// workload and is refused, instead of leaving a workload of a deleted team to
// the scheduling cycle.
TEST_F(ControlPlaneTest, APolicyChangeWaitsForASubmitInFlightAndThenSeesIt) {
  apply_policy();
  store_.close();
  std::thread submitter([this] { submit(workload_yaml("a", "research", 1), "research"); });
  store_.wait_until_entered(2);  // the policy, then the submit: validated, its commit held
  Status deleted;
  std::thread deleter([&] { deleted = calls_->delete_object("Team", "research"); });
  plane_->wait_until_policy_changes_asked(1);
  EXPECT_FALSE(store_.wait_until_entered_for(3, std::chrono::milliseconds(300)))
      << "the delete was validated and committed while the submit was in flight";
  store_.open();
  submitter.join();
  deleter.join();

  EXPECT_EQ(deleted.code(), ErrorCode::kFailedPrecondition) << deleted.to_string();
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "a"), "Admitted");
}

// Issue 10, item 12: an apply that changes nothing stores nothing and does
// not wait for the gate, so it cannot hold back submits (200 clients applying
// the same policy made every request queue behind the gate).
TEST_F(ControlPlaneTest, AnApplyThatChangesNothingDoesNotWaitForASubmitInFlight) {
  apply_policy();
  store_.close();
  std::thread submitter([this] { submit(workload_yaml("a", "research", 1), "research"); });
  store_.wait_until_entered(2);  // the policy, then the submit: its commit held, the gate shared
  std::atomic<bool> answered{false};
  Result<ApplyResult> again = Status(ErrorCode::kInternal, "not answered");
  std::thread applier([&] {
    again = calls_->apply(kTwoTeamPolicy, false);
    answered = true;
  });
  for (int i = 0; i < 200 && !answered.load(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(answered.load()) << "the unchanged apply waited for the submit in flight";
  store_.open();
  submitter.join();
  applier.join();
  ASSERT_TRUE(again.ok()) << again.status().to_string();
  for (const PolicyChange& change : again->changes) EXPECT_EQ(change.action, "unchanged");
  EXPECT_EQ(store_.entered(), 2u) << "an unchanged apply stored something";
}

// A change that keeps every request (a quota) leaves the waiting work
// schedulable; one that changes them (a team's quota gone) recompiles it.
TEST_F(ControlPlaneTest, APolicyChangeRecompilesTheWaitingWorkOnlyWhenItsRequestsChange) {
  apply_policy();
  submit(workload_yaml("a", "research", 1), "research");
  std::string smaller = kTwoTeamPolicy;
  const std::string research = "metadata: {name: research}";
  const size_t at = smaller.find("nominal: 8", smaller.find(research));
  smaller.replace(at, 10, "nominal: 6");
  apply_policy(smaller);
  std::string without_quota = kTwoTeamPolicy;
  without_quota.replace(without_quota.find("  quota:", without_quota.find(research)),
                        std::string::npos, "  quota: []\n");
  apply_policy(without_quota);
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "a"), "Pending");
  apply_policy(smaller);
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "a"), "Admitted");
}

// A quota change gives every workload the request it has: it takes no gate
// and commits while a submit is in flight. A change that takes a team's quota
// away changes requests: it waits for the submit in flight, as a delete does.
TEST_F(ControlPlaneTest, OnlyAPolicyChangeThatChangesRequestsWaitsForASubmitInFlight) {
  apply_policy();
  const std::string research = "metadata: {name: research}";
  std::string smaller = kTwoTeamPolicy;
  smaller.replace(smaller.find("nominal: 8", smaller.find(research)), 10, "nominal: 6");
  std::string without_quota = kTwoTeamPolicy;
  without_quota.replace(without_quota.find("  quota:", without_quota.find(research)),
                        std::string::npos, "  quota: []\n");
  for (const std::string* change : {&smaller, &without_quota}) {
    const size_t before = store_.entered();
    store_.close();
    const std::string name = change == &smaller ? "a" : "b";
    std::thread submitter([&] { submit(workload_yaml(name, "research", 1), "research"); });
    store_.wait_until_entered(before + 1);  // the submit: validated, its commit held
    std::thread applier([&] { apply_policy(*change); });
    const bool committed = store_.wait_until_entered_for(
        before + 2, std::chrono::milliseconds(change == &smaller ? 5000 : 300));
    EXPECT_EQ(committed, change == &smaller)
        << "apply " << (change == &smaller ? "smaller" : "without quota");
    store_.open();
    submitter.join();
    applier.join();
  }
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "a"), "Pending");  // research has no quota any more
  EXPECT_EQ(phase("research", "b"), "Pending");
}

// Issue 10, isolation 9: moving a team to another namespace while it has work
// would put its waiting work on the quota of whoever takes the old name.
TEST_F(ControlPlaneTest, ATeamsNamespaceCannotChangeWhileItHasWork) {
  apply_policy();
  submit(workload_yaml("job", "research", 1), "research");
  const std::string moved =
      "apiVersion: allot/v1\nkind: Team\nmetadata: {name: research}\nspec:\n  cohort: org\n"
      "  namespace: lab\n  quota: [{flavor: gpu, resources: {gpu: {nominal: 8}}}]\n";

  const Result<ApplyResult> refused = calls_->apply(moved, false);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(refused.status().details(), "Team/research.spec.namespace");
  EXPECT_NE(refused.status().message().find("research/job"), std::string::npos)
      << refused.status().message();

  ASSERT_TRUE(calls_->cancel_workload("research", "job").ok());
  const Result<ApplyResult> applied = calls_->apply(moved, false);
  EXPECT_TRUE(applied.ok()) << applied.status().to_string();
}

TEST(DurableWatermarkTest, WaitsOnlyForChangesNotYetStored) {
  DurableWatermark stored;
  stored.wait_until_stored(0);  // nothing to wait for
  stored.advance(3);
  stored.advance(2);            // never goes back
  stored.wait_until_stored(3);  // returns at once
  std::thread reader([&] { stored.wait_until_stored(4); });
  stored.wait_until_waiting(1);
  stored.advance(4);
  reader.join();
}

}  // namespace
}  // namespace allot::testing
