#include "service/simulation/trace_arrivals.h"

#include <gtest/gtest.h>

#include "api/manifest_parser.h"

namespace allot {
namespace {

constexpr std::string_view kArrivalsPolicy = R"(
apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
spec: {}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: high}
spec: {value: 1000}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: batch}
spec: {value: 10}
---
apiVersion: allot/v1
kind: Team
metadata: {name: vc-ab12}
spec:
  quota: [{flavor: gpu, resources: {gpu: {nominal: 8}}}]
)";

Policy policy() {
  Result<ManifestBundle> bundle = parse_manifests(kArrivalsPolicy);
  EXPECT_TRUE(bundle.ok()) << bundle.status().to_string();
  return bundle->policy;
}

TraceJob job(int64_t submit_s, int64_t duration_s, int64_t gpus, std::string team, int64_t line) {
  TraceJob trace_job;
  trace_job.submit = Timestamp::from_millis(submit_s * 1000);
  trace_job.duration = Duration::seconds(duration_s);
  trace_job.gpus = gpus;
  trace_job.team = std::move(team);
  trace_job.line = line;
  return trace_job;
}

TEST(TeamNamespace, LowerCasesAndReplacesInvalidCharacters) {
  EXPECT_EQ(team_namespace("6214e9", "vc-"), "vc-6214e9");
  EXPECT_EQ(team_namespace("Research_Team 1", ""), "research-team-1");
  EXPECT_EQ(team_namespace("a.b-c", ""), "a.b-c");
}

TEST(TraceArrivals, SmallJobsAreOnePodAndLargeOnesAGangOfFullNodes) {
  TraceArrivalOptions options;
  options.namespace_prefix = "vc-";
  const std::vector<TraceJob> jobs = {job(100, 60, 3, "AB12", 2), job(130, 60, 8, "ab12", 3),
                                      job(160, 60, 12, "ab12", 4)};
  Result<TraceArrivals> converted = trace_arrivals(jobs, policy(), options);
  ASSERT_TRUE(converted.ok()) << converted.status().to_string();
  const std::vector<Arrival>& arrivals = converted->arrivals.arrivals();
  ASSERT_EQ(arrivals.size(), 3U);
  EXPECT_EQ(converted->origin, Timestamp::from_millis(100'000));
  EXPECT_EQ(arrivals[0].at, Timestamp::epoch());
  EXPECT_EQ(arrivals[1].at, Timestamp::from_millis(30'000));
  EXPECT_EQ(arrivals[0].runtime, Duration::seconds(60));
  const Workload& small = arrivals[0].workload;
  EXPECT_EQ(small.meta.name, "job-2");
  EXPECT_EQ(small.meta.namespace_name, "vc-ab12");
  EXPECT_EQ(small.spec.priority_class, "batch");  // the policy's lowest
  EXPECT_FALSE(small.spec.max_runtime.has_value());
  ASSERT_EQ(small.spec.pod_sets.size(), 1U);
  EXPECT_EQ(small.spec.pod_sets[0].count, 1);
  EXPECT_EQ(small.spec.pod_sets[0].resources.gpu(), 3);
  EXPECT_EQ(arrivals[1].workload.spec.pod_sets[0].count, 1);
  EXPECT_EQ(arrivals[1].workload.spec.pod_sets[0].resources.gpu(), 8);
  const PodSet& gang = arrivals[2].workload.spec.pod_sets[0];
  EXPECT_EQ(gang.count, 2);
  EXPECT_EQ(gang.resources.gpu(), 8);
  EXPECT_EQ(gang.effective_min_count(), 2);
}

TEST(TraceArrivals, SkipsAndCountsJobsThatCannotBeReplayed) {
  TraceArrivalOptions options;
  options.namespace_prefix = "vc-";
  const std::vector<TraceJob> jobs = {job(0, 60, 0, "ab12", 2), job(0, 0, 1, "ab12", 3),
                                      job(0, 0, 0, "zz", 4),    job(0, 60, 1, "zz", 5),
                                      job(0, 60, 1, "zz", 6),   job(0, 60, 1, "ab12", 7)};
  Result<TraceArrivals> converted = trace_arrivals(jobs, policy(), options);
  ASSERT_TRUE(converted.ok()) << converted.status().to_string();
  EXPECT_EQ(converted->arrivals.size(), 1U);
  EXPECT_EQ(converted->skipped.zero_gpus, 2);
  EXPECT_EQ(converted->skipped.zero_duration, 1);
  EXPECT_EQ(converted->skipped.unknown_team, (std::map<std::string, int64_t>{{"vc-zz", 2}}));
  EXPECT_EQ(converted->skipped.total(), 5);
}

TEST(TraceArrivals, KeepsTheJobsNameAndPriorityClass) {
  TraceJob named = job(0, 60, 1, "vc-ab12", 2);
  named.name = "sweep";
  named.priority_class = "high";
  Result<TraceArrivals> converted = trace_arrivals({named}, policy());
  ASSERT_TRUE(converted.ok()) << converted.status().to_string();
  EXPECT_EQ(converted->arrivals.arrivals()[0].workload.meta.name, "sweep");
  EXPECT_EQ(converted->arrivals.arrivals()[0].workload.spec.priority_class, "high");
  EXPECT_FALSE(trace_arrivals({named, named}, policy()).ok());  // duplicate names
}

}  // namespace
}  // namespace allot
