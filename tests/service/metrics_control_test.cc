// The /metrics snapshot of the control plane on a manual clock (issue 14,
// item 4): quota, usage, borrowed and lent per team; the admission wait of a
// first admission; a preemption by its reason; the scheduler's cycles; cost
// accrued this month from the ledger (hand-computed); and visibility: a
// team-scoped caller sees its team's series only and nothing of the cluster.
//
// The cluster (kTwoTeamPolicy): flavor gpu on 2 nodes of 8 GPUs; teams prod
// and research with 8 GPUs nominal each in cohort org. The clock starts at
// 2027-01-15T08:00:00Z, within January: all spending is this month's.
#include <string>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"
#include "service/metrics/prometheus_text.h"

namespace allot::testing {
namespace {

std::string priced_policy() {
  std::string policy = kTwoTeamPolicy;
  const std::string flavor = "metadata: {name: gpu}\n";
  policy.replace(policy.find(flavor), flavor.size(),
                 flavor + "spec: {price: {currency: EUR, gpuHour: 2}}\n");
  return policy +
         "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: "
         "viewers, namespace: research}\nsubjects: [{kind: User, name: rita}]\nroleRef: "
         "{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: team-viewer}\n";
}

const QuotaUsageRow* gpu_row(const MetricsSnapshot& s, const std::string& team) {
  for (const QuotaUsageRow& row : s.quotas) {
    if (row.team == team && row.resource == Resource::kGpu) return &row;
  }
  return nullptr;
}

class MetricsControl : public ControlPlaneTest {
 protected:
  MetricsSnapshot snapshot(const Principal& caller = Principal::anonymous_admin()) {
    Result<MetricsSnapshot> s = plane_->metrics().snapshot(caller);
    EXPECT_TRUE(s.ok()) << s.status().to_string();
    return s.ok() ? *s : MetricsSnapshot{};
  }

  // research holds 12 GPUs (4 borrowed from prod) for an hour, then prod's
  // high-priority p1 reclaims its quota: r1 is preempted, p1 admitted 10 s later.
  void borrow_then_reclaim() {
    apply_policy(priced_policy());
    r1_ = submit(workload_yaml("r1", "research", 6, 2), "research");
    plane_->loop().run_once();
    ASSERT_TRUE(holds("research", "r1"));
    clock_.advance(Duration::hours(1));
    const MetricsSnapshot borrowing = snapshot();
    ASSERT_NE(gpu_row(borrowing, "research"), nullptr);
    EXPECT_EQ(gpu_row(borrowing, "research")->usage, 12);
    EXPECT_EQ(gpu_row(borrowing, "research")->borrowed, 4);
    EXPECT_EQ(gpu_row(borrowing, "prod")->lent, 4);
    submit(workload_yaml("p1", "prod", 8, 1, "high"), "prod");
    plane_->loop().run_once();
    clock_.advance(Duration::seconds(10));
    exit_pods(r1_, 143, /*stopped=*/true);
    plane_->loop().run_once();
    ASSERT_TRUE(holds("prod", "p1"));
  }

  bool holds(const std::string& ns, const std::string& name) {
    const std::string now = phase(ns, name);
    return now == "Admitted" || now == "Running";
  }

  uint64_t r1_ = 0;
};

TEST_F(MetricsControl, UsageWaitsPreemptionsCyclesAndCostOfAScriptedDay) {
  borrow_then_reclaim();
  const MetricsSnapshot s = snapshot();
  EXPECT_EQ(gpu_row(s, "prod")->usage, 8);
  EXPECT_EQ(gpu_row(s, "prod")->nominal, 8);
  EXPECT_EQ(gpu_row(s, "prod")->admitted, 1);
  EXPECT_EQ(gpu_row(s, "research")->usage, 0);
  EXPECT_EQ(gpu_row(s, "research")->pending, 1);  // r1, requeued
  // First admissions only: r1 at once; p1 submitted at 1h, admitted at 1h10s.
  ASSERT_TRUE(s.teams.admission_wait.contains("prod"));
  EXPECT_EQ(s.teams.admission_wait.at("prod").count(), 1u);
  EXPECT_DOUBLE_EQ(s.teams.admission_wait.at("prod").sum(), 10);
  EXPECT_EQ(s.teams.admission_wait.at("research").count(), 1u);
  EXPECT_DOUBLE_EQ(s.teams.admission_wait.at("research").sum(), 0);
  const std::pair<std::string, std::string> reclaim = {"research", "ReclaimWithinCohort"};
  ASSERT_TRUE(s.teams.preemptions.contains(reclaim));
  EXPECT_EQ(s.teams.preemptions.at(reclaim), 1u);
  ASSERT_TRUE(s.cluster.has_value());
  EXPECT_EQ(s.cluster->nodes.size(), 2u);
  EXPECT_GE(s.cluster->activity.cycle_duration.count(), 2u);
  EXPECT_EQ(s.cluster->activity.admissions_per_cycle.sum(), 2);
  // research: 12 GPUs x (1h + 10s) at 2 EUR; prod: 8 GPUs x 0 s so far.
  double research_cost = -1;
  for (const TeamCost& cost : s.costs) {
    if (cost.team == "research") research_cost = cost.amount;
    EXPECT_EQ(cost.currency, "EUR");
    EXPECT_EQ(cost.flavor, "gpu");
  }
  EXPECT_NEAR(research_cost, 12 * (1 + 10.0 / 3600) * 2, 1e-9);

  const std::string text = render_prometheus(s);
  EXPECT_NE(text.find("\nallot_team_usage{team=\"prod\",cohort=\"org\",flavor=\"gpu\","
                      "resource=\"gpu\"} 8\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\nallot_preemptions_total{team=\"research\",reason=\"ReclaimWithinCohort\"} "
                      "1\n"),
            std::string::npos);
  EXPECT_NE(text.find("\nallot_admission_wait_seconds_bucket{team=\"prod\",le=\"15\"} 1\n"),
            std::string::npos);
  EXPECT_NE(text.find("\nallot_admission_wait_seconds_bucket{team=\"prod\",le=\"5\"} 0\n"),
            std::string::npos);
}

TEST_F(MetricsControl, ATeamScopedCallerSeesItsTeamOnlyAndNothingOfTheCluster) {
  borrow_then_reclaim();
  const MetricsSnapshot s = snapshot(Principal::user("rita"));
  ASSERT_FALSE(s.quotas.empty());
  for (const QuotaUsageRow& row : s.quotas) EXPECT_EQ(row.team, "research");
  EXPECT_FALSE(s.cluster.has_value());
  EXPECT_FALSE(s.teams.admission_wait.contains("prod"));
  EXPECT_TRUE(s.teams.admission_wait.contains("research"));
  for (const TeamCost& cost : s.costs) EXPECT_EQ(cost.team, "research");
  const std::string text = render_prometheus(s);
  EXPECT_EQ(text.find("team=\"prod\""), std::string::npos);
  EXPECT_EQ(text.find("allot_node_"), std::string::npos);
  EXPECT_EQ(text.find("allot_http_"), std::string::npos);
}

GpuUsageSample gpu_sample(const std::string& node, int32_t gpu, const std::string& team,
                          double utilization) {
  GpuUsageSample sample;
  sample.node = node;
  sample.gpu = gpu;
  sample.team = team;
  if (!team.empty()) sample.workload = WorkloadId(gpu + 1);
  sample.utilization = utilization;
  sample.memory_used_bytes = int64_t{gpu} << 30;
  return sample;
}

// The executor's GPU readings: per GPU with its holder's team, per team the
// mean over its GPUs (research: (0.75 + 0.25) / 2 = 0.5); a team-scoped
// caller sees only its team's GPUs, never one no pod holds.
TEST_F(MetricsControl, MeasuredGpusPerGpuAndPerTeamWithTheTeamsVisibility) {
  apply_policy(priced_policy());
  executor_.set_gpu_usage({gpu_sample("n1", 0, "prod", 1.0), gpu_sample("n1", 1, "research", 0.75),
                           gpu_sample("n2", 2, "research", 0.25), gpu_sample("n2", 3, "", 0)});
  const std::string all = render_prometheus(snapshot());
  for (const char* line :
       {R"(allot_gpu_utilization_ratio{node="n1",gpu="0",team="prod"} 1)",
        R"(allot_gpu_utilization_ratio{node="n1",gpu="1",team="research"} 0.75)",
        R"(allot_gpu_utilization_ratio{node="n2",gpu="3",team=""} 0)",
        R"(allot_gpu_memory_used_bytes{node="n2",gpu="2",team="research"} 2147483648)",
        R"(allot_team_gpu_utilization_ratio{team="prod"} 1)",
        R"(allot_team_gpu_utilization_ratio{team="research"} 0.5)"}) {
    EXPECT_NE(all.find(std::string("\n") + line + "\n"), std::string::npos) << line;
  }
  EXPECT_EQ(all.find(R"(allot_team_gpu_utilization_ratio{team=""})"), std::string::npos);

  const MetricsSnapshot rita = snapshot(Principal::user("rita"));
  ASSERT_EQ(rita.gpus.size(), 2u);
  for (const GpuUsageSample& gpu : rita.gpus) EXPECT_EQ(gpu.team, "research");
  const std::string text = render_prometheus(rita);
  EXPECT_EQ(text.find("team=\"prod\""), std::string::npos);
  EXPECT_EQ(text.find("team=\"\""), std::string::npos);
}

// Allocated but idle: per team and flavor (the node's), the GPUs its pods
// hold whose last utilisation is below 0.05; 0 for a team whose held GPUs
// all work; with the team's visibility.
TEST_F(MetricsControl, IdleAllocatedGpusPerTeamAndFlavorWithTheTeamsVisibility) {
  apply_policy(priced_policy());
  executor_.set_gpu_usage(
      {gpu_sample("pool-0", 0, "prod", 0.9), gpu_sample("pool-0", 1, "research", 0.04),
       gpu_sample("pool-1", 2, "research", 0), gpu_sample("pool-1", 3, "research", 0.05),
       gpu_sample("pool-1", 4, "", 0)});
  const std::string all = render_prometheus(snapshot());
  for (const char* line : {R"(allot_team_gpus_allocated_idle{team="prod",flavor="gpu"} 0)",
                           R"(allot_team_gpus_allocated_idle{team="research",flavor="gpu"} 2)"}) {
    EXPECT_NE(all.find(std::string("\n") + line + "\n"), std::string::npos) << line << "\n" << all;
  }
  EXPECT_EQ(all.find(R"(allot_team_gpus_allocated_idle{team="")"), std::string::npos);
  const std::string rita = render_prometheus(snapshot(Principal::user("rita")));
  EXPECT_NE(rita.find("\nallot_team_gpus_allocated_idle{team=\"research\",flavor=\"gpu\"} 2\n"),
            std::string::npos);
  EXPECT_EQ(rita.find("allot_team_gpus_allocated_idle{team=\"prod\""), std::string::npos);
}

TEST_F(MetricsControl, WithoutMeasuredGpusNoGpuFamilyIsWritten) {
  apply_policy(priced_policy());
  const std::string text = render_prometheus(snapshot());
  EXPECT_EQ(text.find("allot_gpu_"), std::string::npos);
  EXPECT_EQ(text.find("allot_team_gpus_allocated_idle"), std::string::npos);
}

TEST_F(MetricsControl, ACallerWithNoBindingIsDenied) {
  apply_policy(priced_policy());
  const Result<MetricsSnapshot> s = plane_->metrics().snapshot(Principal::user("mallory"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), ErrorCode::kPermissionDenied);
  EXPECT_NE(s.status().message().find("cannot get metrics"), std::string::npos);
}

TEST_F(MetricsControl, BeforeAnyPolicyTheClusterPartIsEmptyAndValid) {
  const MetricsSnapshot s = snapshot();
  EXPECT_TRUE(s.quotas.empty());
  ASSERT_TRUE(s.cluster.has_value());
  EXPECT_TRUE(s.cluster->nodes.empty());
  EXPECT_NE(render_prometheus(s).find("# TYPE allot_team_usage gauge"), std::string::npos);
}

}  // namespace
}  // namespace allot::testing
