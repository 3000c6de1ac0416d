// Item 6 of issue 11: may you submit is RBAC plus the team's allowed
// priority classes; quota plays no part.
#include "authz/submit_check.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rbac_fixtures.h"

namespace allot {
namespace {

using namespace rbac_test;

Team vision_team() {
  Team team;
  team.meta.name = "vision";
  team.namespace_name = "vision";
  team.allowed_priority_classes = {"batch", "normal"};
  return team;
}

Workload workload(std::string ns, std::string priority_class) {
  Workload w;
  w.meta.name = "train-1";
  w.meta.namespace_name = std::move(ns);
  w.spec.priority_class = std::move(priority_class);
  return w;
}

struct SubmitCase {
  std::string what;
  Principal caller;
  Workload workload;
  bool allowed;
  std::string why;
};

TEST(SubmitCheck, RbacThenTheTeamsPriorityClasses) {
  RbacPolicy policy = with_builtin_roles({});
  add_team(policy, "vision");
  add_team(policy, "research");
  const Authorizer authorizer(policy);
  const Principal member = Principal::user("ana", {"vision-members"});
  const std::vector<SubmitCase> cases = {
      {"a member, an allowed class", member, workload("vision", "batch"), true,
       "User \"ana\" may create workloads \"train-1\" in namespace \"vision\": RoleBinding "
       "\"vision/members\" grants ClusterRole \"team-member\" (verbs [create, cancel] on "
       "[workloads] in apiGroups [allot])"},
      {"no class: the scheduler picks and checks the default", member, workload("vision", ""), true,
       ""},
      {"a class the team does not allow", member, workload("vision", "urgent"), false,
       "User \"ana\" cannot submit workloads \"train-1\" in namespace \"vision\": team "
       "\"vision\" does not allow PriorityClass \"urgent\" (it allows batch, normal)"},
      {"a viewer may not submit", Principal::user("vic", {"vision-viewers"}),
       workload("vision", "batch"), false,
       "User \"vic\" cannot create workloads \"train-1\" in namespace \"vision\": no binding "
       "grants it"},
      {"a member of another team may not", Principal::user("rob", {"research-members"}),
       workload("vision", "batch"), false,
       "User \"rob\" cannot create workloads \"train-1\" in namespace \"vision\": no binding "
       "grants it"},
      {"into another team's namespace than the team's",
       Principal::user("rob", {"research-members"}), workload("research", "batch"), false,
       "User \"rob\" cannot submit workloads \"train-1\" in namespace \"research\": team "
       "\"vision\" works in namespace \"vision\""},
  };
  for (const SubmitCase& row : cases) {
    const Decision decision = authorize_submit(authorizer, row.caller, row.workload, vision_team());
    EXPECT_EQ(decision.allowed, row.allowed) << row.what << ": " << decision.why;
    if (!row.why.empty()) {
      EXPECT_EQ(decision.why, row.why) << row.what;
    }
  }
}

}  // namespace
}  // namespace allot
