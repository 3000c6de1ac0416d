// What-if studies on a trace (issue 18): load and capacity factors, and the
// honest warnings and errors of a replay (skipped teams, unfit jobs, the
// cycle that ran, empty traces, duplicate names, the inferred format).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "api/manifest_parser.h"
#include "api/trace_reader.h"
#include "backends/sim/virtual_executor.h"
#include "hard_quota_policy.h"
#include "service/study/capacity_scaling.h"
#include "service/study/policy_comparison.h"
#include "service/study/unfit_jobs.h"

namespace allot {
namespace {

using testing::kHardQuota;

Policy what_if_hard_quota() {
  Result<ManifestBundle> bundle = parse_manifests(kHardQuota);
  EXPECT_TRUE(bundle.ok()) << bundle.status().to_string();
  return bundle->policy;
}

std::vector<TraceJob> study_trace_jobs(std::string_view text) {
  Result<std::vector<TraceJob>> parsed = parse_trace(text, TraceFormat::kCsv, "jobs.csv");
  EXPECT_TRUE(parsed.ok()) << parsed.status().to_string();
  return parsed.ok() ? *parsed : std::vector<TraceJob>();
}

StudyOptions what_if_options() {
  StudyOptions study;
  study.trace_origin = "jobs.csv";
  study.executor = sim::virtual_executor_factory();
  return study;
}

int64_t gpu_nominal(const Policy& policy, const std::string& team) {
  return policy.find_team(team)->quota.front().of(Resource::kGpu).nominal;
}

TEST(CapacityScaling, ScalesPoolsAndQuotasInWholeNodes) {
  const Result<Policy> third = scale_capacity(what_if_hard_quota(), 1.0 / 3);
  ASSERT_TRUE(third.ok()) << third.status().to_string();
  EXPECT_EQ(third->node_pools.front().count, 1);  // 3 nodes -> 1
  EXPECT_EQ(gpu_nominal(*third, "alpha"), 8);     // 1 node stays 1 (never 0)
  EXPECT_EQ(gpu_nominal(*third, "beta"), 8);      // 2 nodes -> round(0.67) = 1
  EXPECT_EQ(third->find_team("beta")->quota.front().of(Resource::kGpu).borrowing_limit, 0);
  const Result<Policy> doubled = scale_capacity(what_if_hard_quota(), 2);
  ASSERT_TRUE(doubled.ok());
  EXPECT_EQ(doubled->node_pools.front().count, 6);
  EXPECT_EQ(gpu_nominal(*doubled, "beta"), 32);
  EXPECT_EQ(*scale_capacity(what_if_hard_quota(), 1), what_if_hard_quota());
}

TEST(CapacityScaling, AnAmountThatIsNoWholeNodeIsRoundedAsItIs) {
  Policy policy = what_if_hard_quota();
  policy.teams[0].quota[0].resources[0].nominal = 4;  // half a node
  const Result<Policy> half = scale_capacity(policy, 0.5);
  ASSERT_TRUE(half.ok());
  EXPECT_EQ(gpu_nominal(*half, "alpha"), 2);
}

TEST(CapacityScaling, TheFactorMustBePositiveAndBounded) {
  for (const double factor : {0.0, -1.0, 1e9}) {
    EXPECT_EQ(scale_capacity(what_if_hard_quota(), factor).status().code(),
              ErrorCode::kInvalidArgument)
        << factor;
  }
}

TEST(TraceArrivals, ALoadFactorCompressesInterArrivalTimesButNotDurations) {
  TraceArrivalOptions compressed;
  compressed.load_factor = 4;
  const Result<TraceArrivals> converted = trace_arrivals(
      study_trace_jobs(
          "submit_s,duration_s,gpus,team\n100,60,1,alpha\n110,60,1,alpha\n101,5,1,beta\n"),
      what_if_hard_quota(), compressed);
  ASSERT_TRUE(converted.ok()) << converted.status().to_string();
  std::vector<int64_t> at;
  for (const Arrival& arrival : converted->arrivals.arrivals()) {
    at.push_back(arrival.at.ms());
  }
  EXPECT_EQ(at, (std::vector<int64_t>{0, 250, 2500}));
  EXPECT_EQ(converted->arrivals.arrivals()[2].runtime, Duration::seconds(60));
  compressed.load_factor = 0;
  EXPECT_EQ(trace_arrivals(study_trace_jobs("submit_s,duration_s,gpus,team\n0,1,1,alpha\n"),
                           what_if_hard_quota(), compressed)
                .status()
                .code(),
            ErrorCode::kInvalidArgument);
}

TEST(PolicyComparison, DuplicateJobNamesNameBothLines) {
  const Result<PolicyComparison> comparison =
      compare_policies(study_trace_jobs("submit_s,duration_s,gpus,team,name\n"
                                        "0,10,1,alpha,same\n"
                                        "1,10,1,beta,other\n"
                                        "2,10,1,alpha,same\n"),
                       {{"p", what_if_hard_quota(), "p.yaml"}}, what_if_options());
  ASSERT_FALSE(comparison.ok());
  EXPECT_EQ(comparison.status().details(), "jobs.csv: line 4");
  EXPECT_NE(comparison.status().message().find("'same'"), std::string::npos);
  EXPECT_NE(comparison.status().message().find("first on line 2"), std::string::npos)
      << comparison.status().to_string();
}

TEST(PolicyComparison, AnEmptyTraceIsAnError) {
  const Result<PolicyComparison> comparison =
      compare_policies({}, {{"p", what_if_hard_quota(), "p.yaml"}}, what_if_options());
  EXPECT_EQ(comparison.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(comparison.status().details(), "jobs.csv");
  EXPECT_NE(comparison.status().message().find("no jobs"), std::string::npos);
}

constexpr std::string_view kOneUnknownInFive =
    "submit_s,duration_s,gpus,team\n0,10,1,alpha\n1,10,1,alpha\n2,10,1,beta\n3,10,1,beta\n"
    "4,10,1,gamma\n";

TEST(PolicyComparison, TooManyJobsOfUnknownTeamsFailWithTheNamespacesAndThePrefix) {
  StudyOptions study = what_if_options();
  study.namespace_prefix = "";
  study.max_unknown_team_share = 0.01;
  const Result<PolicyComparison> failed = compare_policies(
      study_trace_jobs(kOneUnknownInFive), {{"p", what_if_hard_quota(), "p.yaml"}}, study);
  ASSERT_EQ(failed.status().code(), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(failed.status().details(), "p.yaml");
  const std::string message = failed.status().message();
  EXPECT_NE(message.find("1 of 5 jobs (20.0%"), std::string::npos) << message;
  EXPECT_NE(message.find("gamma (1)"), std::string::npos) << message;
  EXPECT_NE(message.find("--team-prefix"), std::string::npos) << message;
  EXPECT_NE(message.find("--allow-skips"), std::string::npos) << message;
  study.max_unknown_team_share = 0.2;  // exactly at the share: allowed
  const Result<PolicyComparison> allowed = compare_policies(
      study_trace_jobs(kOneUnknownInFive), {{"p", what_if_hard_quota(), "p.yaml"}}, study);
  ASSERT_TRUE(allowed.ok()) << allowed.status().to_string();
  EXPECT_EQ(allowed->runs[0].skipped.unknown_team.at("gamma"), 1);
  study.max_unknown_team_share.reset();
  EXPECT_TRUE(compare_policies(study_trace_jobs(kOneUnknownInFive),
                               {{"p", what_if_hard_quota(), ""}}, study)
                  .ok());
}

TEST(PolicyComparison, ThePolicysCycleRunsUnlessOverridden) {
  Policy with_cycle = what_if_hard_quota();
  Cluster cluster;
  cluster.meta.name = "c";
  cluster.scheduling.cycle = Duration::seconds(30);
  with_cycle.clusters.push_back(cluster);
  StudyOptions study = what_if_options();
  const Result<PolicyComparison> own =
      compare_policies(study_trace_jobs(kOneUnknownInFive),
                       {{"own", with_cycle, ""}, {"none", what_if_hard_quota(), ""}}, study);
  ASSERT_TRUE(own.ok()) << own.status().to_string();
  EXPECT_EQ(own->runs[0].cycle, Duration::seconds(30));
  EXPECT_FALSE(own->runs[0].cycle_overridden);
  EXPECT_EQ(own->runs[1].cycle, Duration::seconds(1));  // no Cluster: 1s
  study.cycle = Duration::seconds(10);
  const Result<PolicyComparison> overridden =
      compare_policies(study_trace_jobs(kOneUnknownInFive), {{"own", with_cycle, ""}}, study);
  ASSERT_TRUE(overridden.ok());
  EXPECT_EQ(overridden->runs[0].cycle, Duration::seconds(10));
  EXPECT_TRUE(overridden->runs[0].cycle_overridden);
}

// alpha (StrictFIFO, 8 GPUs, no borrowing) gets a 16-GPU job on line 3: it
// can never start and blocks alpha's later jobs (lines 4 and 6), not beta's.
constexpr std::string_view kUnfit =
    "submit_s,duration_s,gpus,team\n"
    "0,10,1,alpha\n"
    "1,10,16,alpha\n"
    "2,10,1,alpha\n"
    "3,10,1,beta\n"
    "4,10,2,alpha\n";

TEST(UnfitJobs, AJobOverItsTeamsLimitIsFoundWithItsLineAndTheJobsItBlocks) {
  TraceArrivalOptions arrival;
  const Result<std::vector<UnfitJob>> unfit =
      unfit_jobs(study_trace_jobs(kUnfit), what_if_hard_quota(), arrival);
  ASSERT_TRUE(unfit.ok()) << unfit.status().to_string();
  ASSERT_EQ(unfit->size(), 1U);
  const UnfitJob& job = unfit->front();
  EXPECT_EQ(job.line, 3);
  EXPECT_EQ(job.namespace_name, "alpha");
  EXPECT_EQ(job.gpus, 16);
  EXPECT_EQ(job.limit, 8);
  EXPECT_EQ(job.reason, UnfitReason::kTeamLimit);
  EXPECT_EQ(job.blocked_lines, (std::vector<int64_t>{4, 6}));
  // The replay agrees: the unfit job and the two it blocks are never admitted.
  const Result<PolicyComparison> comparison = compare_policies(
      study_trace_jobs(kUnfit), {{"p", what_if_hard_quota(), ""}}, what_if_options());
  ASSERT_TRUE(comparison.ok()) << comparison.status().to_string();
  EXPECT_EQ(comparison->runs[0].unfit, *unfit);
  EXPECT_EQ(comparison->runs[0].never_admitted, 3);
}

TEST(UnfitJobs, AJobLargerThanTheClusterIsNamedAsSuchAndBestEffortBlocksNothing) {
  Policy roomy = what_if_hard_quota();
  roomy.teams[1].quota[0].resources[0].nominal = 40;  // beta's quota exceeds the 24 GPUs
  roomy.teams[1].queueing = QueueingStrategy::kBestEffortFifo;
  const Result<std::vector<UnfitJob>> unfit = unfit_jobs(
      study_trace_jobs("submit_s,duration_s,gpus,team\n0,10,32,beta\n1,10,1,beta\n"), roomy, {});
  ASSERT_TRUE(unfit.ok()) << unfit.status().to_string();
  ASSERT_EQ(unfit->size(), 1U);
  EXPECT_EQ(unfit->front().reason, UnfitReason::kCluster);
  EXPECT_EQ(unfit->front().limit, 24);
  EXPECT_TRUE(unfit->front().blocked_lines.empty());
}

// Under hard quota a higher load factor never lowers the mean queueing delay.
TEST(PolicyComparison, MeanQueueingUnderHardQuotaGrowsWithTheLoadFactor) {
  std::string text = "submit_s,duration_s,gpus,team\n";
  for (int i = 0; i < 40; ++i) {
    text += std::to_string(i * 50) + "," + std::to_string(60 + (i * 37) % 200) + "," +
            std::to_string(1 + (i * 5) % 8) + "," + (i % 3 == 0 ? "beta" : "alpha") + "\n";
  }
  const std::vector<TraceJob> trace = study_trace_jobs(text);
  std::vector<double> means;
  for (const double load : {1.0, 2.0, 4.0, 8.0}) {
    StudyOptions study = what_if_options();
    study.load_factor = load;
    const Result<PolicyComparison> comparison =
        compare_policies(trace, {{"hard", what_if_hard_quota(), ""}}, study);
    ASSERT_TRUE(comparison.ok()) << comparison.status().to_string();
    EXPECT_EQ(comparison->runs[0].summary.overall.jobs, 40);
    means.push_back(comparison->runs[0].summary.overall.mean_queue_s);
  }
  for (size_t i = 1; i < means.size(); ++i) {
    EXPECT_GE(means[i], means[i - 1]) << "load factor index " << i;
  }
  EXPECT_GT(means.back(), means.front());
}

TEST(PolicyComparison, GpuHoursOwnBorrowedAndIdleArePricedWithTheFlavorsPrice) {
  Policy priced = what_if_hard_quota();
  priced.flavors[0].price.gpu_hour = 2.5;
  const std::vector<TraceJob> trace =
      study_trace_jobs("submit_s,duration_s,gpus,team\n0,3600,8,alpha\n0,1800,8,beta\n");
  StudyOptions study = what_if_options();
  study.cycle = Duration::seconds(10);
  const Result<PolicyComparison> comparison = compare_policies(trace, {{"p", priced, ""}}, study);
  ASSERT_TRUE(comparison.ok()) << comparison.status().to_string();
  const TraceSummary& summary = comparison->runs[0].summary;
  EXPECT_DOUBLE_EQ(summary.overall.own_gpu_hours, 12.0);  // 8 x 1 h + 8 x 0.5 h
  EXPECT_DOUBLE_EQ(summary.overall.borrowed_gpu_hours, 0.0);
  EXPECT_DOUBLE_EQ(summary.overall.idle_gpu_hours, 12.0);  // 24 GPUs x 1 h - 12
  ASSERT_TRUE(summary.overall.cost.has_value());
  EXPECT_DOUBLE_EQ(*summary.overall.cost, 30.0);
  EXPECT_DOUBLE_EQ(*summary.overall.idle_cost, 30.0);
  EXPECT_EQ(summary.currency, "USD");
  EXPECT_DOUBLE_EQ(summary.teams[0].metrics.own_gpu_hours, 8.0);
  EXPECT_DOUBLE_EQ(*summary.teams[1].metrics.cost, 10.0);
  // Without a price there is no cost, only hours.
  const Result<PolicyComparison> unpriced =
      compare_policies(trace, {{"p", what_if_hard_quota(), ""}}, study);
  ASSERT_TRUE(unpriced.ok());
  EXPECT_FALSE(unpriced->runs[0].summary.overall.cost.has_value());
  EXPECT_DOUBLE_EQ(unpriced->runs[0].summary.overall.own_gpu_hours, 12.0);
}

TEST(TraceFormat, IsInferredFromTheHeader) {
  EXPECT_EQ(*detect_trace_format("timestamp,duration,num_gpus,gpu_time,cluster\n1,2", "a"),
            TraceFormat::kPhilly);
  EXPECT_EQ(*detect_trace_format("submit_s,duration_s,gpus,team,name\r\n", "a"), TraceFormat::kCsv);
  const Result<TraceFormat> unknown = detect_trace_format("when,what\n1,2\n", "x.csv");
  EXPECT_EQ(unknown.status().details(), "x.csv: line 1");
  EXPECT_NE(unknown.status().message().find("--format"), std::string::npos);
  const Result<TraceFormat> empty = detect_trace_format("", "x.csv");
  EXPECT_NE(empty.status().message().find("empty"), std::string::npos);
}

}  // namespace
}  // namespace allot
