// Every use case of the control plane asks for the caller and denies by
// default: a caller without RBAC bindings may read or do nothing (lists show
// it nothing; top, aggregate numbers, is open to every caller).
#include "service/control/caller_rights.h"

#include <string>

#include <gtest/gtest.h>

#include "api/manifest_parser.h"
#include "api/workload_submission.h"
#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

WorkloadQuery prod_only() {
  WorkloadQuery query;
  query.namespace_name = "prod";
  return query;
}

const Principal kNobody{"alice@example.com", {"ml-research"}, false};

TEST(CallerRights, PolicyKindsAreResourcesInKubernetesPluralForm) {
  EXPECT_EQ(resource_of_kind("Team"), "teams");
  EXPECT_EQ(resource_of_kind("PriorityClass"), "priorityclasses");
  EXPECT_EQ(resource_of_kind("NodePool"), "nodepools");
  EXPECT_EQ(resource_of_kind("ResourceFlavor"), "resourceflavors");
}

class CallerRightsTest : public ControlPlaneTest {};

TEST_F(CallerRightsTest, EveryWorkloadUseCaseDeniesANonAdminAndChangesNothing) {
  apply_policy();
  submit(workload_yaml("a", "prod", 1), "prod");
  WorkloadService& workloads = plane_->workloads();
  const WorkloadId id = workloads.allocate_id();
  const Result<Workload> b = decode_workload_submission(workload_yaml("b", "prod", 1), "prod", id);
  ASSERT_TRUE(b.ok());

  EXPECT_EQ(workloads.create(kNobody, *b, id).status().code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(workloads.cancel(kNobody, "prod", "a").status().code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(workloads.remove(kNobody, "prod", "a").code(), ErrorCode::kPermissionDenied);
  const Result<WorkloadPage> all = workloads.list(kNobody, {});
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->items.empty()) << "no binding, nothing seen";
  EXPECT_EQ(workloads.list(kNobody, prod_only()).status().code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(workloads.get(kNobody, "prod", "a").status().code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(workloads.events(kNobody, "prod", "a").status().code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(workloads.log(kNobody, "prod", "a", 0, 0).status().code(),
            ErrorCode::kPermissionDenied);

  EXPECT_EQ(phase("prod", "a"), "Pending");
  EXPECT_EQ(calls_->get_workload("prod", "b").status().code(), ErrorCode::kNotFound);
}

TEST_F(CallerRightsTest, PolicyAndNodeUseCasesDenyANonAdminAndChangeNothing) {
  apply_policy();
  PolicyService& policies = plane_->policies();
  const Result<ParsedManifests> parsed = parse_manifests_with_documents(
      "apiVersion: allot/v1\nkind: Cohort\nmetadata: {name: other}\n");
  ASSERT_TRUE(parsed.ok());

  EXPECT_EQ(policies.apply(kNobody, *parsed, false).status().code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(policies.delete_object(kNobody, "Team", "research").code(),
            ErrorCode::kPermissionDenied);
  EXPECT_EQ(policies.list_objects(kNobody, "Team").status().code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(policies.get_object(kNobody, "Team", "prod").status().code(),
            ErrorCode::kPermissionDenied);
  EXPECT_TRUE(policies.top(kNobody).ok()) << "aggregate numbers, open to every caller";
  NodeService& nodes = plane_->nodes();
  const Result<NodePage> all = nodes.list(Principal::anonymous_admin(), {});
  ASSERT_TRUE(all.ok() && !all->items.empty());
  const std::string node = all->items.front().name;
  EXPECT_EQ(nodes.act(kNobody, node, NodeAction::kCordon).status().code(),
            ErrorCode::kPermissionDenied);
  EXPECT_EQ(nodes.list(kNobody, {}).status().code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(nodes.get(kNobody, node).status().code(), ErrorCode::kPermissionDenied);

  EXPECT_EQ(calls_->get_object("Cohort", "other").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(calls_->list_objects("Team")->at("items").size(), 2u);
  EXPECT_FALSE((*calls_->get_node(node))["cordoned"].get<bool>());
}

}  // namespace
}  // namespace allot::testing
