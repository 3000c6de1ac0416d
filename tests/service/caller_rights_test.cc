// Every use case of the control plane asks for the caller and denies by
// default: a caller without RBAC bindings may read or do nothing (lists and
// top show it nothing), and a caller who may see one team's work never reads
// the names of another team's workloads (issue 11, item 5).
#include "service/control/caller_rights.h"

#include <string>

#include <gtest/gtest.h>

#include "api/manifest_parser.h"
#include "api/workload_submission.h"
#include "authz/builtin_roles.h"
#include "control_plane_fixture.h"
#include "service/control/workload_redaction.h"

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
  EXPECT_EQ(policies.top(kNobody).status().code(), ErrorCode::kPermissionDenied)
      << "a caller with no binding sees nothing, not even aggregates";
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

// A viewer of research: an admin's session narrowed to team-viewer there.
Principal research_viewer() {
  Principal viewer = Principal::user("vera", {std::string(kAdminsGroup)});
  viewer.scope = SessionScope{"research", std::string(kTeamViewer)};
  return viewer;
}

TEST_F(CallerRightsTest, AResearchViewerNeverReadsTheNameOfProdsPreemptor) {
  apply_policy();
  const uint64_t borrower = submit(workload_yaml("sweep", "research", 8, 2), "research");
  plane_->loop().run_once();
  plane_->loop().run_once();
  submit(workload_yaml("urgent", "prod", 8, 1, "high"), "prod");
  plane_->loop().run_once();
  exit_pods(borrower, 143, /*stopped=*/true);
  ASSERT_EQ(phase("research", "sweep"), "Preempted");
  WorkloadService& workloads = plane_->workloads();
  const Principal viewer = research_viewer();

  const Result<WorkloadView> seen = workloads.get(viewer, "research", "sweep");
  ASSERT_TRUE(seen.ok()) << seen.status().message();
  EXPECT_EQ(seen->doc.status.preempted_by, kOtherTeamsWorkload);
  const Result<WorkloadPage> page = workloads.list(viewer, {});
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->items.size(), 1u) << "research's work only";
  EXPECT_EQ(page->items[0]->find("urgent"), std::string::npos) << *page->items[0];
  EXPECT_NE(page->items[0]->find(kOtherTeamsWorkload), std::string::npos) << *page->items[0];
  const Result<std::vector<WorkloadEventView>> events =
      workloads.events(viewer, "research", "sweep");
  ASSERT_TRUE(events.ok());
  bool preemption_told = false;
  for (const WorkloadEventView& event : *events) {
    EXPECT_EQ(event.message.find("urgent"), std::string::npos) << event.message;
    preemption_told |= event.message.find("preempted by another team's workload") == 0;
  }
  EXPECT_TRUE(preemption_told) << "the event still says why, without the name";
  EXPECT_TRUE(workloads.events(viewer, "prod", "urgent").status().code() ==
              ErrorCode::kPermissionDenied);

  // An admin still reads the name, in the same state.
  const Result<WorkloadView> admin_view =
      workloads.get(Principal::anonymous_admin(), "research", "sweep");
  ASSERT_TRUE(admin_view.ok());
  EXPECT_EQ(admin_view->doc.status.preempted_by, "prod/urgent");
}

TEST(WorkloadRedaction, MessagesKeepTheirWordsAndLoseOnlyUnseenNames) {
  const VisibleNamespaces research_only{false, {"research"}};
  EXPECT_EQ(redact_message(preempted_by_phrase("prod/urgent") + " (ReclaimWithinCohort); stopping",
                           research_only),
            "preempted by another team's workload (ReclaimWithinCohort); stopping");
  EXPECT_EQ(redact_message(preempted_by_phrase("research/a") + "; requeued", research_only),
            "preempted by research/a; requeued");
  EXPECT_EQ(redact_message(preempted_by_phrase("another workload"), research_only),
            "preempted by another workload");
  EXPECT_EQ(redact_message("preempted by prod/x; preempted by prod/y", research_only),
            "preempted by another team's workload; preempted by another team's workload");
  EXPECT_EQ(redact_message("preempted by prod/x", VisibleNamespaces{true, {}}),
            "preempted by prod/x");
  EXPECT_EQ(redact_message("no names here", research_only), "no names here");
  EXPECT_EQ(redact_message("preempted by ", research_only), "preempted by ");
}

}  // namespace
}  // namespace allot::testing
