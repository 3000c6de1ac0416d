// Trace replays end to end: trace text -> TraceJobs -> arrivals -> a
// simulation of a policy -> TraceMetrics.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "api/manifest_parser.h"
#include "api/trace_reader.h"
#include "hard_quota_policy.h"
#include "scenario_fixture.h"
#include "service/simulation/simulation_runner.h"
#include "service/simulation/trace_arrivals.h"
#include "service/simulation/trace_metrics.h"
#include "service/study/capacity_scaling.h"

namespace allot {
namespace {

using testing::kHardQuota;
using testing::virtual_options;

// Submit times start at 1000 s on the trace's axis: virtual time 0.
constexpr std::string_view kFiveJobs =
    "submit_s,duration_s,gpus,team\n"
    "1000,100,8,alpha\n"  // t=0: admitted at 0, alpha full until 100
    "1005,50,4,alpha\n"   // t=5: waits for alpha's quota: admitted at 100
    "1012,30,4,Alpha\n"   // t=12: behind it (StrictFIFO): admitted at 100 too
    "1020,20,16,beta\n"   // t=20: a gang of two full nodes, admitted at 20
    "1025,10,1,beta\n";   // t=25: beta full until 40: admitted at 40

const Duration kCycle = Duration::seconds(10);

Policy parse_policy(std::string_view yaml) {
  Result<ManifestBundle> bundle = parse_manifests(yaml);
  EXPECT_TRUE(bundle.ok()) << bundle.status().to_string();
  return bundle->policy;
}

struct Replay {
  SimulationReport report;
  TraceSummary summary;
};

Replay replay(const std::vector<TraceJob>& jobs, const Policy& policy,
              const TraceArrivalOptions& arrival_options,
              SimulationOptions options = virtual_options()) {
  Result<TraceArrivals> arrivals = trace_arrivals(jobs, policy, arrival_options);
  EXPECT_TRUE(arrivals.ok()) << arrivals.status().to_string();
  Result<SimulationReport> report = run_simulation(policy, arrivals->arrivals, {}, kCycle, options);
  EXPECT_TRUE(report.ok()) << report.status().to_string();
  return {*report, summarize_trace_run(*report, policy)};
}

TEST(TraceReplay, HardQuotaQueueingDelaysMatchTheHandComputation) {
  Result<std::vector<TraceJob>> jobs = parse_trace(kFiveJobs, TraceFormat::kCsv, "five.csv");
  ASSERT_TRUE(jobs.ok()) << jobs.status().to_string();
  const Replay run = replay(*jobs, parse_policy(kHardQuota), {});
  const TraceMetrics& overall = run.summary.overall;
  // Delays 0, 95, 88, 0, 15; completion times 100, 145, 118, 20, 25.
  EXPECT_EQ(overall.jobs, 5);
  EXPECT_EQ(overall.finished, 5);
  EXPECT_DOUBLE_EQ(overall.mean_queue_s, 198.0 / 5);
  EXPECT_DOUBLE_EQ(overall.median_queue_s, 15.0);
  EXPECT_DOUBLE_EQ(overall.p95_queue_s, 95.0);
  EXPECT_DOUBLE_EQ(overall.max_queue_s, 95.0);
  EXPECT_DOUBLE_EQ(overall.mean_jct_s, 408.0 / 5);
  // 1450 GPU-seconds of work on 24 GPUs over [0, 150].
  EXPECT_DOUBLE_EQ(overall.utilization, 1450.0 / (24.0 * 150));
  EXPECT_EQ(overall.preemptions, 0);
  EXPECT_EQ(overall.borrowed_gpu_hours, 0.0);
  ASSERT_EQ(run.summary.teams.size(), 2U);
  EXPECT_EQ(run.summary.teams[0].team, "alpha");
  EXPECT_DOUBLE_EQ(run.summary.teams[0].metrics.mean_queue_s, 183.0 / 3);
  EXPECT_DOUBLE_EQ(run.summary.teams[0].metrics.median_queue_s, 88.0);
  EXPECT_EQ(run.summary.teams[1].metrics.jobs, 2);
  EXPECT_DOUBLE_EQ(run.summary.teams[1].metrics.mean_queue_s, 7.5);
  EXPECT_DOUBLE_EQ(run.summary.teams[1].metrics.mean_jct_s, 22.5);
}

std::string philly_path(const char* file) {
  return std::string(ALLOT_SOURCE_DIR) + "/../shared/data/traces/philly/" + file;
}

std::string example_path(const char* file) {
  return std::string(ALLOT_SOURCE_DIR) + "/examples/philly/" + file;
}

// Jobs of the Philly trace submitted in [from, to).
std::vector<TraceJob> philly_slice(const char* from, const char* to) {
  TraceWindow window;
  window.from = *parse_trace_time(from, TraceFormat::kPhilly);
  window.to = *parse_trace_time(to, TraceFormat::kPhilly);
  Result<std::vector<TraceJob>> jobs =
      load_trace_file(philly_path("jobs.csv"), TraceFormat::kPhilly, window);
  EXPECT_TRUE(jobs.ok()) << jobs.status().to_string();
  return jobs.ok() ? *jobs : std::vector<TraceJob>();
}

Policy load_policy(const char* file) {
  Result<ManifestBundle> bundle = load_manifest_file(example_path(file));
  EXPECT_TRUE(bundle.ok()) << bundle.status().to_string();
  return bundle->policy;
}

TraceArrivalOptions philly_options() {
  TraceArrivalOptions options;
  options.namespace_prefix = "vc-";
  return options;
}

#define SKIP_WITHOUT_PHILLY()                                         \
  if (!std::filesystem::exists(philly_path("jobs.csv"))) {            \
    GTEST_SKIP() << "no Philly trace at " << philly_path("jobs.csv"); \
  }

TEST(TraceReplay, SameTraceAndPolicyGiveIdenticalResults) {
  SKIP_WITHOUT_PHILLY();
  const std::vector<TraceJob> jobs = philly_slice("2017-10-02", "2017-10-03");
  ASSERT_FALSE(jobs.empty());
  const Policy policy = load_policy("fair-share.yaml");
  const Replay first = replay(jobs, policy, philly_options());
  const Replay second = replay(jobs, policy, philly_options());
  EXPECT_EQ(first.report, second.report);
  EXPECT_EQ(first.summary, second.summary);
  EXPECT_EQ(first.summary.overall.jobs, static_cast<int64_t>(jobs.size()));
}

// Per cycle: no team holds more than nominal + borrowingLimit (its cohort's
// whole capacity when the limit is unset).
class TeamLimits {
 public:
  TeamLimits(const Policy& policy, int64_t capacity) {
    for (const Team& team : policy.teams) {
      const ResourceQuota& quota = team.quota.at(0).of(Resource::kGpu);
      limits_.push_back(quota.borrowing_limit ? quota.nominal + *quota.borrowing_limit : capacity);
    }
  }
  void check(const Snapshot& snapshot) {
    std::vector<int64_t> used(limits_.size(), 0);
    for (const AdmittedWorkload& admitted : snapshot.admitted) {
      used[admitted.team.value()] += admitted.usage().gpu();
    }
    for (size_t team = 0; team < used.size(); ++team) {
      if (used[team] > limits_[team]) {
        ++violations_;
      }
    }
  }
  [[nodiscard]] int64_t violations() const { return violations_; }

 private:
  std::vector<int64_t> limits_;
  int64_t violations_ = 0;
};

void check_invariants(const char* policy_file, const char* from, const char* to) {
  const std::vector<TraceJob> jobs = philly_slice(from, to);
  ASSERT_GT(jobs.size(), 500U);
  const Policy policy = load_policy(policy_file);
  int64_t capacity = 0;
  for (const NodePool& pool : policy.node_pools) {
    capacity += pool.count * pool.resources.gpu();
  }
  testing::PlanInvariants invariants(policy);
  TeamLimits limits(policy, capacity);
  SimulationOptions options = virtual_options();
  options.on_cycle = [&](const Snapshot& snapshot, const Plan& plan) {
    invariants.check(snapshot, plan);
    limits.check(snapshot);
  };
  const Replay run = replay(jobs, policy, philly_options(), options);
  EXPECT_TRUE(invariants.violations().empty())
      << invariants.violations().size() << " violations, first: " << invariants.violations()[0];
  EXPECT_EQ(limits.violations(), 0);
  EXPECT_GT(invariants.cycles_checked(), 0);
  EXPECT_TRUE(run.report.never_admitted.empty());
  EXPECT_EQ(run.summary.overall.finished, run.summary.overall.jobs);
  EXPECT_EQ(run.summary.overall.jobs, static_cast<int64_t>(jobs.size()));
}

TEST(TraceReplay, AWeekOfPhillyUnderBorrowKeepsTheInvariants) {
  SKIP_WITHOUT_PHILLY();
  check_invariants("borrow.yaml", "2017-10-02", "2017-10-09");
}

TEST(TraceReplay, ThreeDaysOfPhillyUnderHardQuotaKeepTeamsWithinNominal) {
  SKIP_WITHOUT_PHILLY();
  check_invariants("hard-quota.yaml", "2017-10-02", "2017-10-05");
}

// The scheduler options of a trace replay (replay_scheduler_options(): no
// estimated starts, blocked StrictFIFO tails named once) give the report of
// the default options, field by field, under hard quota (deep StrictFIFO
// tails) and borrow.
TEST(TraceReplay, ReplaySchedulerOptionsGiveTheSameReport) {
  SKIP_WITHOUT_PHILLY();
  const std::vector<TraceJob> jobs = philly_slice("2017-10-02", "2017-10-05");
  for (const char* file : {"hard-quota.yaml", "borrow.yaml"}) {
    const Policy policy = load_policy(file);
    SimulationOptions lean = virtual_options();
    lean.scheduler = replay_scheduler_options();
    int64_t tails = 0;
    lean.on_cycle = [&](const Snapshot&, const Plan& plan) {
      tails += static_cast<int64_t>(plan.blocked_tails.size());
    };
    const Replay full = replay(jobs, policy, philly_options());
    const Replay replayed = replay(jobs, policy, philly_options(), lean);
    EXPECT_EQ(full.report, replayed.report) << file;
    EXPECT_EQ(full.summary, replayed.summary) << file;
    if (std::string(file) == "hard-quota.yaml") {
      EXPECT_GT(tails, 1000) << "hard quota rarely blocked a StrictFIFO tail";
    }
  }
}

// Issue 18's study at its hardest point: the Philly window 2017-10-01..11-30
// at a third of the capacity and four times the load. Under borrow, work within
// some teams' nominal splits the room that an owed team needs (fragmented
// cycles); with consolidation every owed cycle is served, by moving such work
// (docs/scheduling.md, "Consolidation"), and every job still finishes.
TEST(TraceReplay, PhillyAtLoadFourWithConsolidationServesEveryGuarantee) {
  SKIP_WITHOUT_PHILLY();
  const std::vector<TraceJob> jobs = philly_slice("2017-10-01", "2017-11-30");
  ASSERT_GT(jobs.size(), 60000U);
  TraceArrivalOptions options = philly_options();
  options.load_factor = 4;
  const Result<Policy> borrow = scale_capacity(load_policy("borrow.yaml"), 1.0 / 3);
  const Result<Policy> consolidation =
      scale_capacity(load_policy("borrow-consolidation.yaml"), 1.0 / 3);
  ASSERT_TRUE(borrow.ok() && consolidation.ok());
  const Replay kueue_rules = replay(jobs, *borrow, options);
  EXPECT_GT(kueue_rules.report.fragmented_cycles, 0);
  EXPECT_EQ(kueue_rules.report.moves, 0);
  const Replay moved = replay(jobs, *consolidation, options);
  EXPECT_DOUBLE_EQ(moved.report.guarantee_compliance, 1.0);
  EXPECT_EQ(moved.report.owed_cycles, moved.report.compliant_cycles);
  EXPECT_GT(moved.report.moves, 0);
  EXPECT_EQ(moved.summary.overall.finished, moved.summary.overall.jobs);
}

}  // namespace
}  // namespace allot
