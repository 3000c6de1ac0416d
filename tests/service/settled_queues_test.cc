// Submits into a blocked queue (settled_queues.h): one queued behind an
// identical workload that an idle cycle left blocked wakes no cycle and is
// planned by the next one that runs for another reason; every other submit
// (one that can start, preempt, or asks anything else) is planned in the
// next pass, as before. SettledQueues alone, then through the control plane.
#include "service/control/settled_queues.h"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

PendingWorkload request(uint64_t id, int64_t queued_ms, int64_t gpus = 4, int32_t priority = 10) {
  PendingWorkload w;
  w.id = WorkloadId(id);
  w.team = TeamIndex(0);
  w.priority_class = PriorityClassIndex(0);
  w.priority = priority;
  w.queued_at = Timestamp::from_millis(queued_ms);
  PodSetRequest pods;
  pods.per_pod[Resource::kGpu] = gpus;
  w.pod_sets.push_back(pods);
  return w;
}

PendingExplanation blocked(uint64_t id,
                           PreemptionVerdict verdict = PreemptionVerdict::kNoCandidates) {
  PendingExplanation e;
  e.workload = WorkloadId(id);
  e.reason = PendingReason::kQuotaExhausted;
  e.preemption = verdict;
  return e;
}

Admission admission(uint64_t id) {
  Admission a;
  a.workload = WorkloadId(id);
  return a;
}

// Workload 1 runs; 2 and 3 wait, 3 last in its queue.
struct IdleCycle {
  Snapshot snapshot;
  Plan plan;
  IdleCycle() {
    snapshot.pending = {request(2, 100), request(3, 200)};
    plan.explanations = {blocked(2), blocked(3)};
  }
};

TEST(SettledQueues, AfterAnIdlePlanAnIdenticalSubmitBehindTheBlockedTailJoins) {
  IdleCycle cycle;
  SettledQueues settled;
  EXPECT_FALSE(settled.joins(request(4, 300))) << "nothing settled yet";
  EXPECT_FALSE(settled.settle(&cycle.plan, cycle.snapshot, 0));
  EXPECT_TRUE(settled.joins(request(4, 300)));
  EXPECT_TRUE(settled.joins(request(5, 300)));
  EXPECT_TRUE(settled.joins(request(6, 150)))
      << "submitted with 3 (queued before it): still behind the head (2)";
  EXPECT_EQ(settled.joined(), 3U);
  EXPECT_FALSE(settled.joins(request(1, 100))) << "queued before the head (2)";
  EXPECT_FALSE(settled.joins(request(7, 400, 2))) << "asks other resources";
  EXPECT_FALSE(settled.joins(request(8, 400, 4, 20))) << "another priority";
  PendingWorkload other_team = request(9, 400);
  other_team.team = TeamIndex(1);
  EXPECT_FALSE(settled.joins(other_team));
  PendingWorkload gang = request(10, 400);
  gang.pod_sets[0].count = 2;
  EXPECT_FALSE(settled.joins(gang));
  PendingWorkload bounded = request(11, 400);
  bounded.max_runtime = Duration::seconds(60);
  EXPECT_FALSE(settled.joins(bounded)) << "another maxRuntime (backfill)";
}

TEST(SettledQueues, APlanThatChangedAnythingSettlesNoQueue) {
  IdleCycle cycle;
  cycle.plan.admissions.push_back(admission(1));
  SettledQueues settled;
  settled.settle(&cycle.plan, cycle.snapshot, 0);
  EXPECT_FALSE(settled.joins(request(4, 300)));

  IdleCycle reserving;
  Reservation reservation;
  reservation.workload = WorkloadId(2);
  reserving.plan.reservations.push_back(reservation);
  settled.settle(&reserving.plan, reserving.snapshot, 0);
  EXPECT_FALSE(settled.joins(request(4, 300)));

  settled.settle(nullptr, {}, 0);
  EXPECT_FALSE(settled.joins(request(4, 300))) << "nothing planned";
}

TEST(SettledQueues, ATailThatMayStillPreemptOrStartIsNotSettled) {
  for (const PreemptionVerdict verdict :
       {PreemptionVerdict::kCandidatesTooYoung, PreemptionVerdict::kWaitingForVictims,
        PreemptionVerdict::kDeferred, PreemptionVerdict::kPreempting}) {
    IdleCycle cycle;
    cycle.plan.explanations[1] = blocked(3, verdict);
    SettledQueues settled;
    settled.settle(&cycle.plan, cycle.snapshot, 0);
    EXPECT_FALSE(settled.joins(request(4, 300))) << static_cast<int>(verdict);
  }
  IdleCycle reserved;
  reserved.plan.explanations[1].reason = PendingReason::kHeldForReservation;
  SettledQueues settled;
  settled.settle(&reserved.plan, reserved.snapshot, 0);
  EXPECT_FALSE(settled.joins(request(4, 300)));
  IdleCycle unexplained;
  unexplained.plan.explanations.pop_back();
  settled.settle(&unexplained.plan, unexplained.snapshot, 0);
  EXPECT_FALSE(settled.joins(request(4, 300)));
}

// Submits that joined while a plan was made are not in it: judged again
// against its tails, one that no longer joins asks for a cycle.
TEST(SettledQueues, SubmitsThatJoinedWhileAPlanWasMadeAreJudgedAgain) {
  IdleCycle cycle;
  SettledQueues settled;
  settled.settle(&cycle.plan, cycle.snapshot, 0);
  ASSERT_TRUE(settled.joins(request(4, 300)));  // in the next snapshot
  const size_t seen = settled.joined();
  ASSERT_TRUE(settled.joins(request(5, 400)));  // while it is planned
  IdleCycle next;
  next.snapshot.pending.push_back(request(4, 300));
  next.plan.explanations.push_back(blocked(4));
  EXPECT_FALSE(settled.settle(&next.plan, next.snapshot, seen)) << "5 still joins";
  EXPECT_EQ(settled.joined(), 1U);
  EXPECT_TRUE(settled.joins(request(6, 500)));

  const size_t seen_again = settled.joined();
  ASSERT_TRUE(settled.joins(request(7, 600)));
  Plan admitting = next.plan;
  admitting.admissions.push_back(admission(2));
  EXPECT_TRUE(settled.settle(&admitting, next.snapshot, seen_again)) << "7 needs a cycle";
}

// Team `research` owns one 8-GPU node and may preempt its lower priorities;
// `prod` owns the other. No cohort: nobody borrows.
constexpr const char* kTwoNodePolicy = R"(
apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: local}
spec: {backend: local, scheduling: {cycle: 1s}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: pool}
spec: {cluster: local, flavor: gpu, count: 2, resources: {gpu: 8, cpu: 64, memory: 256Gi}}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: high}
spec: {value: 1000, preemptionGracePeriod: 30s}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: low}
spec: {value: 10, preemptionGracePeriod: 30s}
---
apiVersion: allot/v1
kind: Team
metadata: {name: research}
spec:
  quota: [{flavor: gpu, resources: {gpu: {nominal: 8}}}]
  preemption: {withinTeam: LowerPriority}
---
apiVersion: allot/v1
kind: Team
metadata: {name: prod}
spec:
  quota: [{flavor: gpu, resources: {gpu: {nominal: 8}}}]
)";

class SettledSubmitTest : public ControlPlaneTest {
 protected:
  // research's `running` (2 pods of 4 GPUs) runs; `blocked` (4 GPUs) waits
  // for its quota, explained by an idle cycle.
  void SetUp() override {
    apply_policy(kTwoNodePolicy);
    running_ = submit(workload_yaml("running", "research", 4, 2), "research");
    pass();
    pass();
    ASSERT_EQ(phase("research", "running"), "Running");
    submit(workload_yaml("blocked", "research", 4), "research");
    pass();
    pass();
    ASSERT_EQ(reason("blocked"), "QuotaExhausted");
  }
  // A pass 1 ms later: well within the 1 s cycle period.
  void pass() {
    clock_.advance(Duration::millis(1));
    plane_->loop().run_once();
  }
  nlohmann::json explanation(const std::string& name, const std::string& ns = "research") {
    const Result<nlohmann::json> view = calls_->get_workload(ns, name);
    return view.ok() ? (*view)["status"]["explanation"] : nlohmann::json();
  }
  std::string reason(const std::string& name) {
    const nlohmann::json e = explanation(name);
    return e.is_object() && e["reason"].is_string() ? e["reason"].get<std::string>() : "";
  }
  uint64_t running_ = 0;
};

TEST_F(SettledSubmitTest, AnIdenticalSubmitBehindTheBlockedOneWaitsForTheNextCycle) {
  const nlohmann::json before = explanation("blocked");
  submit(workload_yaml("same", "research", 4), "research");
  pass();
  EXPECT_EQ(explanation("same")["message"], "not yet considered by a scheduling cycle")
      << "no cycle ran for it";
  EXPECT_EQ(explanation("blocked"), before);

  clock_.advance(Duration::seconds(1));  // the cycle period
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "same"), "Pending");
  EXPECT_EQ(reason("same"), "QuotaExhausted");
  EXPECT_EQ(explanation("same")["queuePosition"], before["queuePosition"].get<int64_t>() + 1);
}

TEST_F(SettledSubmitTest, ASubmitThatCanStartIsAdmittedInTheNextPass) {
  submit(workload_yaml("same", "research", 4), "research");  // joins
  submit(workload_yaml("other", "prod", 4), "prod");
  pass();
  EXPECT_EQ(phase("prod", "other"), "Admitted");
}

TEST_F(SettledSubmitTest, ASubmitThatCanPreemptIsPlannedInTheNextPass) {
  submit(workload_yaml("urgent", "research", 4, 1, "high"), "research");
  pass();
  EXPECT_EQ(explanation("urgent")["preemption"], "Preempting");
}

TEST_F(SettledSubmitTest, ASubmitAskingAnythingElseIsExplainedInTheNextPass) {
  submit(workload_yaml("smaller", "research", 2), "research");
  pass();
  EXPECT_EQ(reason("smaller"), "QuotaExhausted");
}

// The running work's exit frees room for two: the cycle it wakes admits the
// blocked workload; an identical one that came while that plan was made
// (joining the tail as it was) is admitted in the next pass, not at the
// cycle period, though nothing else changed meanwhile.
TEST_F(SettledSubmitTest, ASubmitThatJoinedWhileAPlanAdmittedTheTailIsPlannedInTheNextPass) {
  after_planning_ = [this] {
    after_planning_ = nullptr;
    submit(workload_yaml("late", "research", 4), "research");
  };
  executor_.sink = nullptr;  // launches report no start: no change after the cycle
  exit_pods(running_, 0);    // the pass with the cycle
  ASSERT_EQ(phase("research", "blocked"), "Admitted");
  ASSERT_EQ(phase("research", "late"), "Pending");
  pass();
  EXPECT_EQ(phase("research", "late"), "Admitted");
}

}  // namespace
}  // namespace allot::testing
