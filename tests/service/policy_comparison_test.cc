// The study behind `allot simulate --trace`: one trace, several policies,
// each run measured in the same terms (service/study/policy_comparison.h).
#include "service/study/policy_comparison.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "api/manifest_parser.h"
#include "api/trace_reader.h"
#include "backends/sim/virtual_executor.h"
#include "hard_quota_policy.h"

namespace allot {
namespace {

using testing::kHardQuota;

// The five jobs of trace_replay_test.cc (hand-computed delays 0, 95, 88, 0,
// 15), plus one of 0 GPUs and one of a team no policy has.
constexpr std::string_view kJobs =
    "submit_s,duration_s,gpus,team\n"
    "1000,100,8,alpha\n"
    "1005,50,4,alpha\n"
    "1012,30,4,Alpha\n"
    "1020,20,16,beta\n"
    "1025,10,1,beta\n"
    "1026,10,0,beta\n"
    "1027,10,1,gamma\n";

Policy hard_quota() {
  Result<ManifestBundle> bundle = parse_manifests(kHardQuota);
  EXPECT_TRUE(bundle.ok()) << bundle.status().to_string();
  return bundle->policy;
}

std::vector<TraceJob> jobs(std::string_view text = kJobs) {
  Result<std::vector<TraceJob>> parsed = parse_trace(text, TraceFormat::kCsv, "jobs.csv");
  EXPECT_TRUE(parsed.ok()) << parsed.status().to_string();
  return parsed.ok() ? *parsed : std::vector<TraceJob>();
}

StudyOptions options() {
  StudyOptions study;
  study.trace_origin = "jobs.csv";
  study.cycle = Duration::seconds(10);
  study.executor = sim::virtual_executor_factory();
  return study;
}

TEST(PolicyComparison, EveryPolicyReplaysTheSameJobsInTheGivenOrder) {
  const std::vector<NamedPolicy> policies = {{"first", hard_quota(), "first.yaml"},
                                             {"second", hard_quota(), "second.yaml"}};
  const Result<PolicyComparison> comparison = compare_policies(jobs(), policies, options());
  ASSERT_TRUE(comparison.ok()) << comparison.status().to_string();
  EXPECT_EQ(comparison->jobs, 7);
  ASSERT_EQ(comparison->runs.size(), 2U);
  const PolicyRun& first = comparison->runs[0];
  EXPECT_EQ(first.name, "first");
  EXPECT_EQ(comparison->runs[1].name, "second");
  EXPECT_EQ(first.summary.overall.jobs, 5);
  EXPECT_DOUBLE_EQ(first.summary.overall.mean_queue_s, 198.0 / 5);
  EXPECT_DOUBLE_EQ(first.summary.overall.max_queue_s, 95.0);
  EXPECT_EQ(first.skipped.zero_gpus, 1);
  EXPECT_EQ(first.skipped.unknown_team, (std::map<std::string, int64_t>{{"gamma", 1}}));
  EXPECT_EQ(first.never_admitted, 0);
  EXPECT_GT(first.cycles, 0);
  EXPECT_EQ(first.runtime_s, 0);  // no stopwatch
  EXPECT_EQ(first.summary, comparison->runs[1].summary);
  EXPECT_EQ(first.skipped, comparison->runs[1].skipped);
  EXPECT_EQ(first.cycles, comparison->runs[1].cycles);
}

TEST(PolicyComparison, RuntimeIsTheInjectedStopwatchAroundEachRun) {
  StudyOptions study = options();
  double now = 0;
  study.stopwatch = [&now] { return now += 1.5; };  // 1.5 s between two readings
  const std::vector<NamedPolicy> policies = {{"first", hard_quota(), ""},
                                             {"second", hard_quota(), ""}};
  const Result<PolicyComparison> comparison = compare_policies(jobs(), policies, study);
  ASSERT_TRUE(comparison.ok()) << comparison.status().to_string();
  EXPECT_DOUBLE_EQ(comparison->runs[0].runtime_s, 1.5);
  EXPECT_DOUBLE_EQ(comparison->runs[1].runtime_s, 1.5);
  EXPECT_DOUBLE_EQ(now, 6.0);  // read twice per run, not more
}

TEST(PolicyComparison, ProgressNamesThePolicyThatReplays) {
  StudyOptions study = options();
  std::vector<std::string> seen;
  int64_t last_arrived = 0;
  int64_t last_total = 0;
  study.on_progress = [&](const std::string& policy, int64_t arrived, int64_t total) {
    if (seen.empty() || seen.back() != policy) seen.push_back(policy);
    last_arrived = arrived;
    last_total = total;
  };
  const std::vector<NamedPolicy> policies = {{"first", hard_quota(), ""},
                                             {"second", hard_quota(), ""}};
  ASSERT_TRUE(compare_policies(jobs(), policies, study).ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(last_arrived, 5);
  EXPECT_EQ(last_total, 5);
}

TEST(PolicyComparison, NeedsPoliciesWithUniqueNamesAndAPositiveCycle) {
  EXPECT_EQ(compare_policies(jobs(), {}, options()).status().code(), ErrorCode::kInvalidArgument);
  const Result<PolicyComparison> twins = compare_policies(
      jobs(), {{"same", hard_quota(), "a/same.yaml"}, {"same", hard_quota(), "b/same.yaml"}},
      options());
  EXPECT_EQ(twins.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(twins.status().details(), "b/same.yaml");
  StudyOptions no_cycle = options();
  no_cycle.cycle = Duration();
  EXPECT_EQ(compare_policies(jobs(), {{"p", hard_quota(), ""}}, no_cycle).status().code(),
            ErrorCode::kInvalidArgument);
}

TEST(PolicyComparison, AnInvalidPolicyIsLocatedByItsOriginBeforeAnyRun) {
  Policy broken = hard_quota();
  broken.teams[0].cohort = "nowhere";
  double readings = 0;
  StudyOptions study = options();
  study.stopwatch = [&readings] { return ++readings; };
  const Result<PolicyComparison> comparison = compare_policies(
      jobs(), {{"good", hard_quota(), "good.yaml"}, {"broken", broken, "broken.yaml"}}, study);
  ASSERT_FALSE(comparison.ok());
  EXPECT_EQ(comparison.status().code(), ErrorCode::kNotFound);  // the missing cohort
  EXPECT_EQ(comparison.status().details().rfind("broken.yaml", 0), 0U)
      << comparison.status().to_string();
  EXPECT_EQ(readings, 0);  // nothing ran
}

TEST(PolicyComparison, JobsThatCannotBeReplayedAreLocatedInTheTrace) {
  const std::vector<TraceJob> twins = jobs(
      "submit_s,duration_s,gpus,team,name\n"
      "0,10,1,alpha,same\n"
      "1,10,1,alpha,same\n");
  const Result<PolicyComparison> comparison =
      compare_policies(twins, {{"p", hard_quota(), "p.yaml"}}, options());
  ASSERT_FALSE(comparison.ok());
  EXPECT_EQ(comparison.status().details().rfind("jobs.csv", 0), 0U)
      << comparison.status().to_string();
}

}  // namespace
}  // namespace allot
