// Guarantee compliance (guarantee_tracker.h) measured on small trace replays:
// a team owed its nominal quota is served when reclaim may take back what it
// lent, and is not when its policy forbids reclaim.
#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "api/manifest_parser.h"
#include "api/trace_reader.h"
#include "model/node_inventory.h"
#include "one_pod_workload.h"
#include "scenario_fixture.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/pending_queues.h"
#include "service/simulation/guarantee_tracker.h"
#include "service/simulation/simulation_runner.h"
#include "service/simulation/trace_arrivals.h"
#include "service/simulation/usage_series.h"
#include "violation_class_forms.h"

namespace allot {
namespace {

using testing::fits_without_borrowers;
using testing::virtual_options;

// A cohort "lab" of NODES 8-GPU nodes where alpha owns ALPHA_NOMINAL GPUs
// (reclaimWithinCohort: RECLAIM) and beta 8 (reclaimWithinCohort: Any).
std::string lab_cohort(int nodes, int alpha_nominal, std::string_view alpha_reclaim) {
  std::string yaml = R"(
apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
spec: {}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: pool}
spec: {flavor: gpu, count: NODES, resources: {gpu: 8}}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: batch}
spec: {value: 100, preemptionGracePeriod: 30s}
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: lab}
spec: {}
---
apiVersion: allot/v1
kind: Team
metadata: {name: alpha}
spec:
  cohort: lab
  preemption: {reclaimWithinCohort: RECLAIM, withinTeam: Never}
  quota: [{flavor: gpu, resources: {gpu: {nominal: ALPHA_NOMINAL}}}]
---
apiVersion: allot/v1
kind: Team
metadata: {name: beta}
spec:
  cohort: lab
  preemption: {reclaimWithinCohort: Any, withinTeam: Never}
  quota: [{flavor: gpu, resources: {gpu: {nominal: 8}}}]
)";
  const auto put = [&yaml](std::string_view key, const std::string& value) {
    yaml.replace(yaml.find(key), key.size(), value);
  };
  put("NODES", std::to_string(nodes));
  put("RECLAIM", std::string(alpha_reclaim));
  put("ALPHA_NOMINAL", std::to_string(alpha_nominal));
  return yaml;
}

// The replay of `jobs_csv` under `policy_yaml`, in 10 s cycles.
SimulationReport replay_compliance_trace(const std::string& policy_yaml, std::string_view jobs_csv,
                                         const SimulationOptions& options) {
  Result<ManifestBundle> bundle = parse_manifests(policy_yaml);
  EXPECT_TRUE(bundle.ok()) << bundle.status().to_string();
  Result<std::vector<TraceJob>> jobs = parse_trace(jobs_csv, TraceFormat::kCsv, "jobs.csv");
  EXPECT_TRUE(jobs.ok()) << jobs.status().to_string();
  Result<TraceArrivals> arrivals = trace_arrivals(*jobs, bundle->policy, {});
  EXPECT_TRUE(arrivals.ok()) << arrivals.status().to_string();
  Result<SimulationReport> report =
      run_simulation(bundle->policy, arrivals->arrivals, {}, Duration::seconds(10), options);
  EXPECT_TRUE(report.ok()) << report.status().to_string();
  return *report;
}

// beta fills both nodes at t=0 (one of them borrowed from alpha); alpha asks
// for its nominal at t=100.
constexpr std::string_view kJobs =
    "submit_s,duration_s,gpus,team\n"
    "0,1000,8,beta\n"
    "0,1000,8,beta\n"
    "100,50,8,alpha\n";

// Two 8-GPU nodes; alpha and beta own one each and lend it in one cohort;
// RECLAIM is alpha's reclaimWithinCohort.
SimulationReport replay_with(std::string_view reclaim,
                             SimulationOptions options = virtual_options()) {
  return replay_compliance_trace(lab_cohort(2, 8, reclaim), kJobs, options);
}

TEST(GuaranteeCompliance, ReclaimServesTheOwedTeamInEveryCycle) {
  const SimulationReport report = replay_with("Any");
  ASSERT_EQ(report.teams.size(), 2U);
  const TeamMetrics& alpha = report.teams[0];
  EXPECT_EQ(report.preemptions, 1);
  // Owed from t=100 (victim chosen) through the 30s grace period until admitted.
  EXPECT_GT(alpha.owed_cycles, 0);
  EXPECT_EQ(alpha.compliant_cycles, alpha.owed_cycles);
  EXPECT_DOUBLE_EQ(alpha.guarantee_compliance, 1.0);
  EXPECT_DOUBLE_EQ(report.guarantee_compliance, 1.0);
}

TEST(GuaranteeCompliance, LentQuotaThatCannotBeReclaimedIsAViolation) {
  const SimulationReport report = replay_with("Never");
  const TeamMetrics& alpha = report.teams[0];
  EXPECT_EQ(report.preemptions, 0);
  // alpha is owed in the cycles t=100..1000; only the last one, when beta's
  // borrowed job has ended, admits it.
  EXPECT_EQ(alpha.owed_cycles, 91);
  EXPECT_EQ(alpha.compliant_cycles, 1);
  EXPECT_DOUBLE_EQ(alpha.guarantee_compliance, 1.0 / 91);
  EXPECT_DOUBLE_EQ(report.teams[1].guarantee_compliance, 1.0);  // beta never owed
  EXPECT_LT(report.guarantee_compliance, 1.0);
  // beta borrows alpha's node: without beta's work alpha's job would fit.
  EXPECT_EQ(alpha.reclaimable_cycles, 90);
  EXPECT_EQ(alpha.fragmented_cycles, 0);
  EXPECT_EQ(report.reclaimable_cycles, 90);
  EXPECT_EQ(report.fragmented_cycles, 0);
  // All 90 in a row, at 10 s a cycle.
  EXPECT_DOUBLE_EQ(alpha.longest_violation_s, 900);
  EXPECT_DOUBLE_EQ(report.longest_violation_s, 900);
}

// Two waits of alpha's behind beta's borrowed node (alpha may not reclaim):
// t=100..490 (beta's first jobs end at 500) and t=700..1550 (beta's second
// ones, started at 560 once alpha's first job ended at 550, end at 1560). The
// longest violation is the second run, not the sum.
TEST(GuaranteeCompliance, TheLongestViolationIsTheLongestRunOfViolatedCycles) {
  constexpr std::string_view kTwoWaits =
      "submit_s,duration_s,gpus,team\n"
      "0,500,8,beta\n"
      "0,500,8,beta\n"
      "100,50,8,alpha\n"
      "560,1000,8,beta\n"
      "560,1000,8,beta\n"
      "700,50,8,alpha\n";
  const SimulationReport report =
      replay_compliance_trace(lab_cohort(2, 8, "Never"), kTwoWaits, virtual_options());
  const TeamMetrics& alpha = report.teams[0];
  EXPECT_EQ(alpha.owed_cycles - alpha.compliant_cycles, 40 + 86);
  EXPECT_DOUBLE_EQ(alpha.longest_violation_s, 860);
  EXPECT_DOUBLE_EQ(report.teams[1].longest_violation_s, 0);  // beta never owed
  EXPECT_DOUBLE_EQ(report.longest_violation_s, 860);
}

// Two 8-GPU nodes; alpha owns 12 GPUs, beta 8. alpha's 6-GPU job takes node 0
// at t=0, beta's 4-GPU job (within beta's nominal) node 1 at t=10; alpha's
// second 6-GPU job at t=100 fits alpha's nominal (6 of 12 used) but no node (2
// and 4 GPUs free), and nobody borrows: the violations are fragmentation,
// until alpha's first job ends at t=1000.
TEST(GuaranteeCompliance, RoomSplitByWorkWithinNominalIsAFragmentedViolation) {
  constexpr std::string_view kSplitJobs =
      "submit_s,duration_s,gpus,team\n"
      "0,1000,6,alpha\n"
      "10,5000,4,beta\n"
      "100,50,6,alpha\n";
  const SimulationReport report =
      replay_compliance_trace(lab_cohort(2, 12, "Any"), kSplitJobs, virtual_options());
  const TeamMetrics& alpha = report.teams[0];
  EXPECT_EQ(report.preemptions, 0);
  // Owed at t=0 (its first job admitted) and t=100..1000 (admitted at 1000).
  EXPECT_EQ(alpha.owed_cycles, 92);
  EXPECT_EQ(alpha.compliant_cycles, 2);
  EXPECT_EQ(alpha.fragmented_cycles, 90);
  EXPECT_EQ(alpha.reclaimable_cycles, 0);
  EXPECT_EQ(report.fragmented_cycles, 90);
  EXPECT_DOUBLE_EQ(alpha.longest_violation_s, 900);
}

// Two 8-GPU nodes; alpha and beta own 8 GPUs each. At t=0 beta's 6-GPU job and
// one 2-GPU job fill node 0, and its other 2-GPU job borrows node 1; once the
// 6-GPU job ends (t=50) beta is back within its nominal with 2 GPUs on each
// node. alpha's 8-GPU job at t=100 is owed, 12 GPUs are free, but no node is
// whole, and nobody borrows. Without consolidation alpha waits for beta's small
// jobs to end (t=5000): fragmented cycles. With it one of them moves: alpha is
// served at once and admitted when the moved job has stopped (30 s grace).
TEST(GuaranteeCompliance, ConsolidationServesRoomSplitByWorkWithinNominal) {
  constexpr std::string_view kSplitJobs =
      "submit_s,duration_s,gpus,team\n"
      "0,50,6,beta\n"
      "0,5000,2,beta\n"
      "0,5000,2,beta\n"
      "100,50,8,alpha\n";
  const std::string consolidation = R"(
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: main}
spec: {backend: local, scheduling: {cycle: 10s, consolidation: WithinNominal}}
)";
  const SimulationReport split =
      replay_compliance_trace(lab_cohort(2, 8, "Any"), kSplitJobs, virtual_options());
  EXPECT_GT(split.fragmented_cycles, 400);
  EXPECT_EQ(split.moves, 0);
  const SimulationReport moved = replay_compliance_trace(lab_cohort(2, 8, "Any") + consolidation,
                                                         kSplitJobs, virtual_options());
  EXPECT_DOUBLE_EQ(moved.guarantee_compliance, 1.0);
  EXPECT_EQ(moved.owed_cycles, moved.compliant_cycles);
  EXPECT_EQ(moved.moves, 1);
  EXPECT_EQ(moved.preemptions, 1);
  const auto alpha_job =
      std::find_if(moved.workloads.begin(), moved.workloads.end(),
                   [](const WorkloadRecord& r) { return r.namespace_name == "alpha"; });
  ASSERT_NE(alpha_job, moved.workloads.end());
  ASSERT_TRUE(alpha_job->admitted_s.has_value());
  EXPECT_DOUBLE_EQ(*alpha_job->admitted_s, 130);
  // The moved job restarts: it lost its 100 s of progress (no checkpoints), 2 GPUs' worth.
  const auto moved_job = std::find_if(moved.workloads.begin(), moved.workloads.end(),
                                      [](const WorkloadRecord& r) { return r.moves == 1; });
  ASSERT_NE(moved_job, moved.workloads.end());
  EXPECT_EQ(moved_job->namespace_name, "beta");
  EXPECT_DOUBLE_EQ(moved_job->lost_amount_s, moved_job->lost_work_s * 2);
  EXPECT_GT(moved_job->lost_work_s, 0);
}

// A workload placed with running work of teams above their nominal taken out
// (guarantee_tracker.h): two 8-GPU nodes, team 0 within its nominal, team 1
// above it.
TEST(GuaranteeCompliance, FitsWithoutBorrowersTakesOutOnlyTeamsAboveNominal) {
  const std::vector<GuaranteeNode> nodes = {{FlavorIndex(0), 8, true}, {FlavorIndex(0), 8, true}};
  const auto running = testing::one_pod_running;
  const auto asking = [](int32_t pods, int64_t gpus, FlavorIndex flavor = FlavorIndex()) {
    PendingWorkload w;
    w.id = WorkloadId(9);
    PodSetRequest set;
    set.count = pods;
    set.per_pod[Resource::kGpu] = gpus;
    set.required_flavor = flavor;
    w.pod_sets.push_back(set);
    return w;
  };
  Snapshot snapshot;
  snapshot.admitted = {running(1, 0, 2, 0), running(2, 1, 6, 0), running(3, 1, 4, 1)};
  const std::vector<int64_t> nominal = {8, 4};
  // Team 1 uses 10 GPUs: it borrows.
  std::vector<FlavorIndex> flavors = {FlavorIndex(0)};  // the asking team's
  const auto fits = [&](const PendingWorkload& w) {
    return fits_without_borrowers(snapshot, {}, w, nominal, nodes, flavors, Resource::kGpu);
  };
  EXPECT_TRUE(fits(asking(1, 8)));                   // node 1, once team 1's job is gone
  EXPECT_TRUE(fits(asking(2, 6)));                   // one pod on each node
  EXPECT_FALSE(fits(asking(3, 6)));                  // 6 and 8 GPUs free: two pods at most
  EXPECT_FALSE(fits(asking(1, 8, FlavorIndex(1))));  // no node of that flavor
  flavors = {FlavorIndex(1)};
  EXPECT_FALSE(fits(asking(1, 8)));  // the team has no quota in the nodes' flavor
  flavors = {FlavorIndex(0)};
  // Team 1 within its nominal: its work stays, and no node has 8 free.
  EXPECT_FALSE(
      fits_without_borrowers(snapshot, {}, asking(1, 8), {8, 10}, nodes, flavors, Resource::kGpu));
  // Node 1 unschedulable: only node 0's 6 free GPUs count.
  snapshot.nodes = {NodeCondition{}, NodeCondition{true, true}};
  EXPECT_FALSE(fits(asking(1, 8)));
  EXPECT_TRUE(fits(asking(1, 6)));
}

TEST(GuaranteeCompliance, SkippingIdleCyclesCountsTheSameCycles) {
  SimulationOptions every_cycle = virtual_options();
  every_cycle.skip_idle_cycles = false;
  for (const std::string_view reclaim : {"Any", "Never"}) {
    const SimulationReport skipping = replay_with(reclaim);
    const SimulationReport stepping = replay_with(reclaim, every_cycle);
    EXPECT_LT(skipping.cycles, stepping.cycles);
    EXPECT_EQ(skipping.owed_cycles, stepping.owed_cycles) << reclaim;
    EXPECT_EQ(skipping.compliant_cycles, stepping.compliant_cycles) << reclaim;
  }
}

// Three 8-GPU nodes; alpha owns 16 GPUs and beta 8, in one cohort, and both
// may reclaim (lab_cohort(3, 16, "Any")). Found at load factor 2 on Philly (issue 18): beta borrows
// with 4-GPU jobs spread so that its three most recently started ones sit on three different nodes
// (b7 next to alpha's own 4-GPU job on node 0, b8 and b6 on the two others). When alpha asks for a
// whole node, the greedy walk took those three, beta came back to its nominal, and no node had 8
// GPUs free: "Insufficient", cycle after cycle, though the two beta jobs of one node would have
// made room. b1, b2 fill node 0 and end at 500; b3, b4 node 1 (b4 ends at 320, b8 takes its place
// at 400); b5, b6 node 2; alpha's 4-GPU job and b7 share node 0 from 600 and 700; alpha asks for 8
// GPUs at 1000.
constexpr std::string_view kScatteredJobs =
    "submit_s,duration_s,gpus,team\n"
    "0,500,4,beta\n"
    "0,500,4,beta\n"
    "10,5000,4,beta\n"
    "20,300,4,beta\n"
    "30,5000,4,beta\n"
    "40,5000,4,beta\n"
    "400,5000,4,beta\n"
    "600,5000,4,alpha\n"
    "700,5000,4,beta\n"
    "1000,100,8,alpha\n";

TEST(GuaranteeCompliance, ReclaimFreesOneNodeWhenTheLatestBorrowedJobsAreScattered) {
  const SimulationReport report =
      replay_compliance_trace(lab_cohort(3, 16, "Any"), kScatteredJobs, virtual_options());
  ASSERT_EQ(report.teams.size(), 2U);
  const TeamMetrics& alpha = report.teams[0];
  EXPECT_GT(alpha.owed_cycles, 0);
  EXPECT_EQ(alpha.compliant_cycles, alpha.owed_cycles);
  // Two victims on one node, not three scattered ones.
  EXPECT_EQ(report.preemptions, 2);
  EXPECT_DOUBLE_EQ(report.guarantee_compliance, 1.0);
}

TEST(GuaranteeCompliance, TwoWorkloadsThatFitOnlyOneAtATimeAreNotBothOwed) {
  Snapshot snapshot;
  for (uint64_t id : {1, 2}) {
    PendingWorkload pending;
    pending.id = WorkloadId(id);
    pending.team = TeamIndex(0);
    pending.queued_at = Timestamp::from_millis(static_cast<int64_t>(id));
    PodSetRequest pods;
    pods.per_pod[Resource::kGpu] = 6;
    pending.pod_sets.push_back(pods);
    snapshot.pending.push_back(pending);
  }
  Plan plan;
  plan.admissions.push_back({WorkloadId(1), FlavorIndex(0), {}, {}});
  PendingExplanation waiting;
  waiting.workload = WorkloadId(2);
  plan.explanations.push_back(waiting);
  EXPECT_EQ(judge_guarantees(snapshot, plan, {8}, Resource::kGpu)[0], GuaranteeVerdict::kCompliant);
  plan.admissions.clear();
  waiting.workload = WorkloadId(1);
  plan.explanations.push_back(waiting);
  EXPECT_EQ(judge_guarantees(snapshot, plan, {8}, Resource::kGpu)[0], GuaranteeVerdict::kViolated);
  EXPECT_EQ(judge_guarantees(snapshot, plan, {4}, Resource::kGpu)[0],
            GuaranteeVerdict::kCompliant);  // neither fits the nominal
}

// The definition in guarantee_tracker.h, written out plainly: each team's
// pending work sorted into queue order, served and not-judged ids in sets.
std::vector<GuaranteeVerdict> judge_by_definition(const Snapshot& snapshot, const Plan& plan,
                                                  const std::vector<int64_t>& nominal) {
  std::set<WorkloadId> served;
  std::set<WorkloadId> not_judged;
  for (const Admission& a : plan.admissions) served.insert(a.workload);
  for (const Preemption& p : plan.preemptions) served.insert(p.beneficiary);
  for (const PendingExplanation& e : plan.explanations) {
    if (e.preemption == PreemptionVerdict::kPreempting ||
        e.preemption == PreemptionVerdict::kWaitingForVictims ||
        e.preemption == PreemptionVerdict::kDeferred) {
      served.insert(e.workload);
    }
    if (e.reason == PendingReason::kBlockedByStrictFifo) not_judged.insert(e.workload);
  }
  std::vector<GuaranteeVerdict> verdicts(nominal.size(), GuaranteeVerdict::kNotOwed);
  for (size_t team = 0; team < nominal.size(); ++team) {
    int64_t usage = 0;
    for (const AdmittedWorkload& a : snapshot.admitted) {
      if (a.team.value() == team) usage += a.usage()[Resource::kGpu];
    }
    std::vector<PendingWorkload> queue;
    for (const PendingWorkload& p : snapshot.pending) {
      if (p.team.value() == team) queue.push_back(p);
    }
    if (queue.empty() || usage >= nominal[team]) continue;
    std::sort(queue.begin(), queue.end(), [](const PendingWorkload& a, const PendingWorkload& b) {
      return std::tuple(-a.priority, a.queued_at, a.id) <
             std::tuple(-b.priority, b.queued_at, b.id);
    });
    int64_t remaining = nominal[team] - usage;
    verdicts[team] = GuaranteeVerdict::kCompliant;
    for (const PendingWorkload& p : queue) {
      const int64_t request = p.pod_sets[0].per_pod[Resource::kGpu] * p.pod_sets[0].count;
      if (served.contains(p.id)) {
        remaining = std::max<int64_t>(0, remaining - request);
      } else if (request <= remaining && !not_judged.contains(p.id)) {
        verdicts[team] = GuaranteeVerdict::kViolated;
        break;
      }
    }
  }
  return verdicts;
}

// Random cycles (pending work sorted by id as the simulator keeps it, or
// shuffled; compact ids or far apart; priorities, queue times and plan outcomes drawn at random):
// the tracker's verdicts equal the definition's.
TEST(GuaranteeCompliance, VerdictsFollowTheDefinitionOverRandomCycles) {
  std::mt19937_64 rng(42);
  int violated = 0;
  int compliant = 0;
  for (int round = 0; round < 400; ++round) {
    Snapshot snapshot;
    const int teams = 3;
    std::vector<int64_t> nominal;
    for (int t = 0; t < teams; ++t) nominal.push_back(static_cast<int64_t>(rng() % 17));
    // Compact ids (as the simulator numbers workloads), or ids far apart.
    const uint64_t spread = round % 4 == 3 ? 1'000'000 : 1;
    for (uint64_t id = 1; id <= 40; ++id) {
      if (rng() % 3 == 0) continue;  // ids with gaps
      PendingWorkload p;
      p.id = WorkloadId(id * spread);
      p.team = TeamIndex(static_cast<uint32_t>(rng() % teams));
      p.priority = static_cast<int32_t>(rng() % 3) * 100;
      // Mostly in id order, sometimes requeued with an earlier place.
      p.queued_at = Timestamp::from_millis(static_cast<int64_t>(rng() % 5 == 0 ? rng() % 40 : id));
      PodSetRequest pods;
      pods.per_pod[Resource::kGpu] = static_cast<int64_t>(1 + rng() % 8);
      pods.count = static_cast<int32_t>(1 + rng() % 2);
      p.pod_sets.push_back(pods);
      snapshot.pending.push_back(p);
    }
    for (int a = static_cast<int>(rng() % 3); a > 0; --a) {
      AdmittedWorkload running;
      running.id = WorkloadId(100 + static_cast<uint64_t>(a));
      running.team = TeamIndex(static_cast<uint32_t>(rng() % teams));
      PodSetRequest pods;
      pods.per_pod[Resource::kGpu] = static_cast<int64_t>(1 + rng() % 4);
      running.pod_sets.push_back(pods);
      running.assignment.push_back({1, {PodPlacement{}}});
      snapshot.admitted.push_back(running);
    }
    Plan plan;
    for (const PendingWorkload& p : snapshot.pending) {
      switch (rng() % 6) {
        case 0: plan.admissions.push_back({p.id, FlavorIndex(0), {}, {}}); break;
        case 1:
          plan.preemptions.push_back(
              {WorkloadId(101), p.id, PreemptionReason::kWithinTeam, Duration()});
          break;
        default: {
          PendingExplanation e;
          e.workload = p.id;
          e.preemption = static_cast<PreemptionVerdict>(rng() % 9);
          e.reason = static_cast<PendingReason>(rng() % 8);
          plan.explanations.push_back(e);
        }
      }
    }
    std::shuffle(plan.explanations.begin(), plan.explanations.end(), rng);
    if (round % 2 == 1) std::shuffle(snapshot.pending.begin(), snapshot.pending.end(), rng);
    const std::vector<GuaranteeVerdict> expected = judge_by_definition(snapshot, plan, nominal);
    ASSERT_EQ(judge_guarantees(snapshot, plan, nominal, Resource::kGpu), expected)
        << "round " << round;
    violated +=
        static_cast<int>(std::count(expected.begin(), expected.end(), GuaranteeVerdict::kViolated));
    compliant += static_cast<int>(
        std::count(expected.begin(), expected.end(), GuaranteeVerdict::kCompliant));
  }
  EXPECT_GT(violated, 50) << "the random cycles rarely violated a guarantee";
  EXPECT_GT(compliant, 50) << "the random cycles rarely kept a guarantee";
}

// Random cycles whose teams may be StrictFIFO with a blocked head: its tail
// (the team's work queued after it) explained one by one (kBlockedByStrictFifo)
// or named once (Plan::blocked_tails). Both plans get the definition's
// verdicts, from team queues built here or from PendingQueues.
TEST(GuaranteeCompliance, TailsNamedOnceAreJudgedAsTailsExplainedOneByOne) {
  Result<ManifestBundle> bundle = parse_manifests(lab_cohort(2, 8, "Any"));
  ASSERT_TRUE(bundle.ok()) << bundle.status().to_string();
  Result<CompiledPolicy> policy =
      CompiledPolicy::compile(bundle->policy, expand_node_pools(bundle->policy));
  ASSERT_TRUE(policy.ok()) << policy.status().to_string();
  std::mt19937_64 rng(7);
  int tails = 0;
  int violated = 0;
  for (int round = 0; round < 400; ++round) {
    const int teams = 2;
    std::vector<int64_t> nominal;
    for (int t = 0; t < teams; ++t) nominal.push_back(static_cast<int64_t>(rng() % 25));
    Snapshot snapshot;
    for (uint64_t id = 1; id <= 40; ++id) {
      PendingWorkload p;
      p.id = WorkloadId(id);
      p.team = TeamIndex(static_cast<uint32_t>(rng() % teams));
      p.priority = static_cast<int32_t>(rng() % 2) * 100;
      p.queued_at = Timestamp::from_millis(static_cast<int64_t>(rng() % 5 == 0 ? rng() % 40 : id));
      PodSetRequest pods;
      pods.per_pod[Resource::kGpu] = static_cast<int64_t>(1 + rng() % 8);
      p.pod_sets.push_back(pods);
      snapshot.pending.push_back(p);
    }
    if (rng() % 2 == 0) {
      AdmittedWorkload running;
      running.id = WorkloadId(100);
      running.team = TeamIndex(static_cast<uint32_t>(rng() % teams));
      PodSetRequest pods;
      pods.per_pod[Resource::kGpu] = static_cast<int64_t>(1 + rng() % 8);
      running.pod_sets.push_back(pods);
      running.assignment.push_back({1, {PodPlacement{}}});
      snapshot.admitted.push_back(running);
    }
    if (round % 2 == 1) std::shuffle(snapshot.pending.begin(), snapshot.pending.end(), rng);
    const PendingQueues queues(*policy, snapshot.pending);
    Plan explained;
    Plan named;
    for (int t = 0; t < teams; ++t) {
      const std::vector<uint32_t>& queue = queues.queue(TeamIndex(static_cast<uint32_t>(t)));
      // A blocked head at this position (1-based), or none.
      const size_t head = rng() % 2 == 0 ? queue.size() : 1 + rng() % queue.size();
      for (size_t k = 0; k < queue.size(); ++k) {
        const WorkloadId id = snapshot.pending[queue[k]].id;
        if (k >= head) {
          PendingExplanation e;
          e.workload = id;
          e.reason = PendingReason::kBlockedByStrictFifo;
          explained.explanations.push_back(e);
          continue;
        }
        const bool is_head = k + 1 == head;
        switch (is_head ? 2 + rng() % 4 : rng() % 6) {
          case 0: explained.admissions.push_back({id, FlavorIndex(0), {}, {}}); break;
          case 1:
            explained.preemptions.push_back(
                {WorkloadId(100), id, PreemptionReason::kWithinTeam, Duration()});
            break;
          default: {
            PendingExplanation e;
            e.workload = id;
            e.preemption = static_cast<PreemptionVerdict>(rng() % 9);
            e.reason = is_head ? PendingReason::kQuotaExhausted : PendingReason::kNoFittingNodes;
            explained.explanations.push_back(e);
          }
        }
      }
      if (head < queue.size()) {
        named.blocked_tails.push_back(
            {TeamIndex(static_cast<uint32_t>(t)), static_cast<int32_t>(head), 0});
        ++tails;
      }
    }
    named.admissions = explained.admissions;
    named.preemptions = explained.preemptions;
    for (const PendingExplanation& e : explained.explanations) {
      if (e.reason != PendingReason::kBlockedByStrictFifo) named.explanations.push_back(e);
    }
    for (BlockedTail& tail : named.blocked_tails)
      tail.explanation_index = named.explanations.size();
    const std::vector<GuaranteeVerdict> expected =
        judge_by_definition(snapshot, explained, nominal);
    ASSERT_EQ(judge_guarantees(snapshot, explained, nominal, Resource::kGpu), expected)
        << "round " << round;
    ASSERT_EQ(judge_guarantees(snapshot, named, nominal, Resource::kGpu), expected)
        << "round " << round;
    ASSERT_EQ(judge_guarantees(snapshot, explained, queues, nominal, Resource::kGpu), expected)
        << "round " << round;
    ASSERT_EQ(judge_guarantees(snapshot, named, queues, nominal, Resource::kGpu), expected)
        << "round " << round;
    violated +=
        static_cast<int>(std::count(expected.begin(), expected.end(), GuaranteeVerdict::kViolated));
  }
  EXPECT_GT(tails, 200) << "the random cycles rarely blocked a tail";
  EXPECT_GT(violated, 50) << "the random cycles rarely violated a guarantee";
}

TEST(UsageSeries, BucketMeansIntegrateTheSegments) {
  const RunSegment first{0, Timestamp::from_millis(0), Timestamp::from_millis(1500), 4};
  const RunSegment second{1, Timestamp::from_millis(500), Timestamp::from_millis(4000), 2};
  const std::vector<UsagePoint> series =
      usage_series({&first, &second}, Timestamp::from_millis(0), Timestamp::from_millis(4000), 4);
  ASSERT_EQ(series.size(), 4U);
  EXPECT_DOUBLE_EQ(series[0].t_s, 0.0);
  EXPECT_DOUBLE_EQ(series[0].used, 4 + 1.0);  // 4 all along, 2 for half
  EXPECT_DOUBLE_EQ(series[1].used, 2 + 2.0);  // 4 for half, 2 all along
  EXPECT_DOUBLE_EQ(series[2].used, 2.0);
  EXPECT_DOUBLE_EQ(series[3].t_s, 3.0);
  EXPECT_DOUBLE_EQ(series[3].used, 2.0);
  EXPECT_TRUE(usage_series({&first}, Timestamp::from_millis(5), Timestamp::from_millis(5)).empty());
}

}  // namespace
}  // namespace allot
