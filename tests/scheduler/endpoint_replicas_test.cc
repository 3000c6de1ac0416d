// Endpoint replicas as the scheduler sees them (endpoint_replicas.h) and the
// scaling rule that sets how many are wanted (replica_scaling.h).
#include "scheduler/endpoint_replicas.h"

#include <gtest/gtest.h>

#include "scheduler/replica_scaling.h"

namespace allot {
namespace {

// Team a with 16 GPUs of h100 in cohort org, classes low (10) and high (1000),
// two 8-GPU nodes.
std::shared_ptr<const CompiledPolicy> policy() {
  Policy p;
  ResourceFlavor flavor;
  flavor.meta.name = "h100";
  p.flavors = {flavor};
  Team team;
  team.meta.name = "a";
  team.namespace_name = "a";
  FlavorQuota quota;
  quota.flavor = "h100";
  quota.resources[0] = {16, {}, {}};
  quota.declared[0] = true;
  team.quota = {quota};
  p.teams = {team};
  PriorityClass low;
  low.meta.name = "low";
  low.value = 10;
  PriorityClass high;
  high.meta.name = "high";
  high.value = 1000;
  p.priority_classes = {low, high};
  std::vector<Node> nodes;
  for (const char* name : {"n0", "n1"}) {
    Node node;
    node.name = name;
    node.flavor = "h100";
    node.capacity[Resource::kGpu] = 8;
    nodes.push_back(node);
  }
  return std::make_shared<const CompiledPolicy>(CompiledPolicy::compile(p, nodes).value());
}

Workload endpoint(int32_t min, int32_t max) {
  Workload w;
  w.meta.name = "chat";
  w.meta.namespace_name = "a";
  w.spec.kind = WorkloadKind::kInferenceEndpoint;
  w.spec.priority_class = "high";
  PodSet pods;
  pods.resources[Resource::kGpu] = 8;
  w.spec.pod_sets = {pods};
  EndpointSpec spec;
  spec.min_replicas = min;
  spec.max_replicas = max;
  w.spec.endpoint = spec;
  return w;
}

TEST(EndpointReplicas, GuaranteedBelowMinBurstAboveAtALowerPriority) {
  const auto p = policy();
  EXPECT_EQ(burst_priority(*p), 9);
  const Workload w = endpoint(1, 3);
  const PendingWorkload first = make_replica_request(*p, w, 0, WorkloadId(1), {}).value();
  EXPECT_EQ(first.replica_role, ReplicaRole::kGuaranteed);
  EXPECT_EQ(first.priority, 1000);
  const PendingWorkload second = make_replica_request(*p, w, 1, WorkloadId(2), {}).value();
  EXPECT_EQ(second.replica_role, ReplicaRole::kBurst);
  EXPECT_EQ(second.priority, 9);
  // The class still gives grace period and minimum runtime.
  EXPECT_EQ(second.priority_class, first.priority_class);
  const AdmittedWorkload admitted = admitted_from(first, FlavorIndex(0), {}, {});
  EXPECT_TRUE(admitted.guaranteed());
  EXPECT_TRUE(requeued_from(admitted).guaranteed());
}

TEST(EndpointReplicas, ReplicaOutsideTheRangeOrNotAnEndpointIsRefused) {
  const auto p = policy();
  const Result<PendingWorkload> beyond = make_replica_request(*p, endpoint(1, 3), 3, {}, {});
  ASSERT_FALSE(beyond.ok());
  EXPECT_EQ(beyond.status().details(), "spec.replicas.max");
  Workload job = endpoint(1, 3);
  job.spec.kind = WorkloadKind::kJob;
  const Result<PendingWorkload> not_endpoint = make_replica_request(*p, job, 0, {}, {});
  ASSERT_FALSE(not_endpoint.ok());
  EXPECT_EQ(not_endpoint.status().details(), "spec.kind");
}

TEST(EndpointReplicas, NominalShortfallLeavesBurstUsageOut) {
  const auto p = policy();
  QuotaTree quota(*p);
  const TeamIndex team(0);
  const FlavorIndex h100(0);
  ResourceVector eight;
  eight[Resource::kGpu] = 8;
  quota.add_usage(team, h100, eight);
  quota.add_usage(team, h100, eight);  // at nominal: 16
  EXPECT_EQ(nominal_shortfall(quota, team, h100, eight, {}).fr,
            CompiledPolicy::fr_of(h100, Resource::kGpu));
  EXPECT_EQ(nominal_shortfall(quota, team, h100, eight, {}).available, 0);
  // Half of that usage is a burst replica: the guaranteed one fits.
  EXPECT_EQ(nominal_shortfall(quota, team, h100, eight, eight).fr, -1);
  BurstUsage burst(p->team_count(), p->flavor_count());
  EXPECT_TRUE(burst.of(team, h100).is_zero());
  burst.add(team, h100, eight);
  EXPECT_EQ(burst.of(team, h100)[Resource::kGpu], 8);
}

EndpointSpec scaled(ScaleSignal signal, double target, int32_t min = 1, int32_t max = 10) {
  EndpointSpec spec;
  spec.min_replicas = min;
  spec.max_replicas = max;
  spec.scale_on = signal;
  spec.target = target;
  spec.scale_down_window = Duration::seconds(300);
  return spec;
}

Timestamp endpoint_at_s(int64_t s) { return Timestamp::epoch() + Duration::seconds(s); }

TEST(ReplicaScaler, QueueDepthIsCeilOfDepthOverTargetClamped) {
  const ReplicaScaler scaler(scaled(ScaleSignal::kQueueDepth, 10));
  EXPECT_EQ(scaler.recommend(0, 3), 1);  // clamped to min
  EXPECT_EQ(scaler.recommend(10, 3), 1);
  EXPECT_EQ(scaler.recommend(11, 3), 2);  // ceil
  EXPECT_EQ(scaler.recommend(95, 3), 10);
  EXPECT_EQ(scaler.recommend(5000, 3), 10);  // clamped to max
}

TEST(ReplicaScaler, CpuScalesTheCurrentCountByUseOverTarget) {
  const ReplicaScaler scaler(scaled(ScaleSignal::kCpu, 60, 0, 10));
  EXPECT_EQ(scaler.recommend(90, 4), 6);  // 4 x 90 / 60
  EXPECT_EQ(scaler.recommend(30, 4), 2);
  EXPECT_EQ(scaler.recommend(0, 4), 0);    // min 0: scale to zero
  EXPECT_EQ(scaler.recommend(120, 0), 2);  // from zero, as if one replica
}

TEST(ReplicaScaler, ExternalTakesTheCountClampedAndAtOnce) {
  ReplicaScaler scaler(scaled(ScaleSignal::kExternal, 0, 2, 5));
  EXPECT_EQ(scaler.update(4, 0, endpoint_at_s(0)), 4);
  EXPECT_EQ(scaler.update(9, 0, endpoint_at_s(1)), 5);
  EXPECT_EQ(scaler.update(0, 0, endpoint_at_s(2)), 2);  // no stabilisation for external
}

TEST(ReplicaScaler, ScaleUpAtOnceScaleDownAfterTheWindow) {
  ReplicaScaler scaler(scaled(ScaleSignal::kQueueDepth, 10));
  EXPECT_EQ(scaler.update(80, 1, endpoint_at_s(0)), 8);
  EXPECT_EQ(scaler.update(20, 8, endpoint_at_s(60)), 8);  // within 300 s of the busy reading
  EXPECT_EQ(scaler.update(40, 8, endpoint_at_s(120)), 8);
  EXPECT_EQ(scaler.update(20, 8, endpoint_at_s(300)),
            4);  // the 8 left the window; 4 at 120 s is in
  EXPECT_EQ(scaler.update(20, 4, endpoint_at_s(420)), 2);
  EXPECT_EQ(scaler.update(90, 2, endpoint_at_s(421)), 9);  // up: at once
  EXPECT_EQ(scaler.update(0, 9, endpoint_at_s(400)), 9);   // out of order: ignored
}

}  // namespace
}  // namespace allot
