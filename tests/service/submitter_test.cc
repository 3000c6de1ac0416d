// Issue 11, item 7: allotd records who submitted each workload (the caller's
// subject, never the manifest's word), keeps it across a restart, and hands
// it to the executor with every launch.
#include <string>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

// A caller who may do everything (bound to cluster-admin through its group)
// but is not allotd's anonymous admin.
Principal person(const std::string& subject) { return {subject, {"system:admins"}, false}; }

class SubmitterTest : public ControlPlaneTest {
 protected:
  Result<StoredWorkload> create_as(const Principal& caller, const std::string& yaml,
                                   const std::string& ns) {
    const WorkloadId id = plane_->workloads().allocate_id();
    ALLOT_ASSIGN_OR_RETURN(Workload workload, decode_workload_submission(yaml, ns, id));
    return plane_->workloads().create(caller, workload, id);
  }
};

TEST_F(SubmitterTest, TheCallerIsRecordedAndEveryLaunchCarriesIt) {
  apply_policy();
  const Result<StoredWorkload> created =
      create_as(person("ana"), workload_yaml("a", "prod", 8), "prod");
  ASSERT_TRUE(created.ok()) << created.status().to_string();
  EXPECT_EQ(nlohmann::json::parse(**created)["status"]["submittedBy"], "ana");
  const std::string robot = "system:serviceaccount:research:ci";
  ASSERT_TRUE(create_as(person(robot), workload_yaml("b", "research", 8), "research").ok());

  plane_->loop().run_once();
  ASSERT_EQ(executor_.workload_launches.size(), 2u);
  for (const WorkloadLaunch& launch : executor_.workload_launches) {
    EXPECT_EQ(launch.user, launch.name == "a" ? "ana" : robot) << launch.name;
  }
  EXPECT_EQ((*calls_->get_workload("research", "b"))["status"]["submittedBy"], robot);

  // Recovered from the store: the requeued run is launched for the same user.
  restart();
  EXPECT_EQ((*calls_->get_workload("prod", "a"))["status"]["submittedBy"], "ana");
  executor_.workload_launches.clear();
  plane_->loop().run_once();
  ASSERT_FALSE(executor_.workload_launches.empty());
  for (const WorkloadLaunch& launch : executor_.workload_launches) {
    EXPECT_EQ(launch.user, launch.name == "a" ? "ana" : robot) << launch.name;
  }
}

TEST_F(SubmitterTest, WorkloadsOfAnApplyAreTheApplyingCallers) {
  apply_policy();
  Result<ParsedManifests> parsed =
      parse_manifests_with_documents(workload_yaml("applied", "prod", 1));
  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  const Result<ApplyResult> applied = plane_->policies().apply(person("bo"), *parsed, false);
  ASSERT_TRUE(applied.ok()) << applied.status().to_string();
  EXPECT_EQ((*calls_->get_workload("prod", "applied"))["status"]["submittedBy"], "bo");
  plane_->loop().run_once();
  ASSERT_EQ(executor_.workload_launches.size(), 1u);
  EXPECT_EQ(executor_.workload_launches[0].user, "bo");
}

TEST_F(SubmitterTest, AManifestCannotNameItsOwnSubmitter) {
  apply_policy();
  const Result<StoredWorkload> forged =
      create_as(person("mallory"),
                workload_yaml("forged", "prod", 1) + "status: {submittedBy: ana}\n", "prod");
  EXPECT_EQ(forged.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(calls_->get_workload("prod", "forged").status().code(), ErrorCode::kNotFound);
}

}  // namespace
}  // namespace allot::testing
