// same_workload_requests(): which policy changes leave every workload's
// request as it was (so that allotd need not recompile them on an apply).
#include "scheduler/workload_request.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

// Teams a and b with 8 GPUs each of flavor h100 in cohort org, two classes,
// one 8-GPU node.
Policy base_policy() {
  Policy p;
  ResourceFlavor flavor;
  flavor.meta.name = "h100";
  p.flavors = {flavor};
  Cohort org;
  org.meta.name = "org";
  p.cohorts = {org};
  for (const char* name : {"a", "b"}) {
    Team team;
    team.meta.name = name;
    team.namespace_name = name;
    team.cohort = "org";
    FlavorQuota quota;
    quota.flavor = "h100";
    quota.resources[0] = {8, {}, {}};
    quota.declared[0] = true;
    team.quota = {quota};
    p.teams.push_back(team);
  }
  PriorityClass low;
  low.meta.name = "low";
  low.value = 10;
  PriorityClass high;
  high.meta.name = "high";
  high.value = 1000;
  p.priority_classes = {low, high};
  return p;
}

std::vector<Node> base_nodes() {
  Node node;
  node.name = "n0";
  node.flavor = "h100";
  node.capacity[Resource::kGpu] = 8;
  return {node};
}

bool same(const Policy& changed, const std::vector<Node>& nodes = base_nodes()) {
  const CompiledPolicy before = CompiledPolicy::compile(base_policy(), base_nodes()).value();
  const CompiledPolicy after = CompiledPolicy::compile(changed, nodes).value();
  return same_workload_requests(before, after) && same_workload_requests(after, before);
}

TEST(SameWorkloadRequests, QuotaCohortWeightAndGraceChangesKeepEveryRequest) {
  Policy p = base_policy();
  EXPECT_TRUE(same(p));
  p.teams[0].quota[0].resources[0].nominal = 6;
  p.teams[1].fair_share_weight = 2;
  p.teams[1].cohort.clear();
  p.priority_classes[1].preemption_grace_period = Duration::seconds(5);
  EXPECT_TRUE(same(p));
}

TEST(SameWorkloadRequests, ATeamsNamespaceFlavorsOrAllowedClassesChangeTheRequests) {
  Policy moved = base_policy();
  moved.teams[0].namespace_name = "lab";
  EXPECT_FALSE(same(moved));
  Policy no_quota = base_policy();
  no_quota.teams[1].quota.clear();
  EXPECT_FALSE(same(no_quota));
  Policy allowed = base_policy();
  allowed.teams[0].allowed_priority_classes = {"high"};
  EXPECT_FALSE(same(allowed));
  Policy renamed = base_policy();
  renamed.teams[1].meta.name = "c";
  EXPECT_FALSE(same(renamed));
}

TEST(SameWorkloadRequests, PriorityClassesFlavorsAndNodesChangeTheRequests) {
  Policy value = base_policy();
  value.priority_classes[0].value = 20;
  EXPECT_FALSE(same(value));
  Policy added = base_policy();
  added.priority_classes.push_back(added.priority_classes[0]);
  added.priority_classes.back().meta.name = "lowest";
  added.priority_classes.back().value = 1;
  EXPECT_FALSE(same(added));  // the new lowest class is the default
  Policy flavors = base_policy();
  flavors.flavors.push_back(flavors.flavors[0]);
  flavors.flavors.back().meta.name = "a100";
  EXPECT_FALSE(same(flavors));
  std::vector<Node> bigger = base_nodes();
  bigger[0].capacity[Resource::kGpu] = 16;
  EXPECT_FALSE(same(base_policy(), bigger));
}

}  // namespace
}  // namespace allot

namespace allot {
namespace {

Workload one_gpu_workload(WorkloadKind kind, std::optional<Duration> idle_timeout) {
  Workload workload;
  workload.meta.name = "w";
  workload.meta.namespace_name = "a";
  workload.spec.kind = kind;
  workload.spec.priority_class = "low";
  PodSet pod_set;
  pod_set.resources[Resource::kGpu] = 1;
  workload.spec.pod_sets = {pod_set};
  workload.spec.idle_timeout = idle_timeout;
  return workload;
}

Status request_status(const Workload& workload) {
  const CompiledPolicy policy = CompiledPolicy::compile(base_policy(), base_nodes()).value();
  return make_pending_workload(policy, workload, WorkloadId(1), Timestamp()).status();
}

TEST(IdleTimeout, SpaceNeedsAPositiveIdleTimeout) {
  EXPECT_TRUE(request_status(one_gpu_workload(WorkloadKind::kSpace, Duration::seconds(60))).ok());
  for (const std::optional<Duration> bad :
       {std::optional<Duration>(), std::optional<Duration>(Duration())}) {
    const Status status = request_status(one_gpu_workload(WorkloadKind::kSpace, bad));
    EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(status.to_string().find("spec.idleTimeoutSeconds"), std::string::npos)
        << status.to_string();
  }
}

TEST(IdleTimeout, OtherKindsRefuseOne) {
  EXPECT_TRUE(request_status(one_gpu_workload(WorkloadKind::kJob, std::nullopt)).ok());
  const Status status =
      request_status(one_gpu_workload(WorkloadKind::kTrainingJob, Duration::seconds(60)));
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(status.message().find("only to kind Space"), std::string::npos) << status.to_string();
}

}  // namespace
}  // namespace allot
