// The cross-team matrix of issue 11: users of three teams in each built-in
// role (and a team's service account, a user with no bindings and an
// admin) x every verb x every resource x every namespace, each decision
// compared with what DESIGN.md section 4 says the built-in roles mean.
// Zero unauthorised allows and zero wrongful denials.
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "authz/resource_catalog.h"
#include "authz/visibility.h"
#include "rbac_fixtures.h"

namespace allot {
namespace {

using namespace rbac_test;

const std::vector<std::string> kTeams = {"vision", "research", "audio"};
// The teams' namespaces, one with no team, and the cluster scope.
const std::vector<std::string> kNamespaces = {"vision", "research", "audio", "shared", ""};

enum class Held { kNone, kViewer, kMember, kAdmin, kClusterAdmin };

struct MatrixUser {
  Principal principal;
  Held role;
  std::string team;  // empty for kNone and kClusterAdmin
};

std::vector<MatrixUser> users() {
  std::vector<MatrixUser> out;
  for (const std::string& team : kTeams) {
    out.push_back({Principal::user(team + "-a", {team + "-admins", "staff"}), Held::kAdmin, team});
    out.push_back(
        {Principal::user(team + "-m", {team + "-members", "staff"}), Held::kMember, team});
    out.push_back({Principal::user(team + "-v", {team + "-viewers"}), Held::kViewer, team});
  }
  out.push_back({Principal::user("system:serviceaccount:vision:ci"), Held::kMember, "vision"});
  out.push_back({Principal::user("nobody", {"staff"}), Held::kNone, ""});
  out.push_back({Principal::anonymous_admin(), Held::kClusterAdmin, ""});
  return out;
}

Authorizer organisation() {
  RbacPolicy policy = with_builtin_roles({});
  for (const std::string& team : kTeams) add_team(policy, team);
  policy.role_bindings.push_back(role_binding("vision", "ci", cluster_role_ref("team-member"),
                                              {service_account("vision", "ci")}));
  return Authorizer(policy);
}

bool one_of(const std::string& item, const std::set<std::string>& items) {
  return items.contains(item);
}

// DESIGN.md section 4 and builtin_roles.h, written out independently.
bool expected(const MatrixUser& user, const std::string& verb, const std::string& resource,
              const std::string& ns) {
  if (user.role == Held::kClusterAdmin) return true;
  if (user.role == Held::kNone || ns != user.team) return false;
  // Budgets (issue 14) and policy exceptions (issue 15): read by the team's
  // roles in its namespace, never written, but a team-admin requests
  // (create, update) policy exceptions for its team.
  const bool reads = one_of(verb, {"get", "list", "watch"}) &&
                     one_of(resource, {"workloads", "workloads/logs", "events", "reports",
                                       "metrics", "budgets", "policyexceptions"});
  switch (user.role) {
    case Held::kViewer: return reads;
    case Held::kMember:
      return reads || (one_of(verb, {"create", "cancel"}) && resource == "workloads") ||
             (verb == "create" && resource == "workloads/checkpoint") ||
             (verb == "update" && resource == "workloads/resume");
    case Held::kAdmin:
      if (resource == "budgets") return reads;
      if (resource == "policyexceptions") return reads || one_of(verb, {"create", "update"});
      // Every verb but RBAC's bind and escalate and the contract transitions
      // (issue 15: those are contract-approver's, on contracts only).
      return !one_of(verb,
                     {"bind", "escalate", "approve", "activate", "review", "renew", "revoke"}) &&
             one_of(resource,
                    {"workloads", "workloads/logs", "workloads/exec", "workloads/scale",
                     "workloads/checkpoint", "workloads/resume", "events", "reports", "metrics",
                     "serviceaccounts", "serviceaccounts/token", "roles", "rolebindings"});
    default: return false;
  }
}

TEST(CrossTeamMatrix, EveryDecisionIsExactlyWhatTheRolesGrant) {
  const Authorizer authorizer = organisation();
  int allowed = 0;
  int denied = 0;
  int unauthorised = 0;
  int wrongly_denied = 0;
  for (const MatrixUser& user : users()) {
    const Caller caller = authorizer.resolve(user.principal);
    for (std::string_view verb : allot_verbs()) {
      for (const ResourceInfo& resource : allot_resources()) {
        for (const std::string& ns : kNamespaces) {
          const AccessRequest request{verb, resource.api_group, resource.name, ns, "w"};
          const Decision decision = authorizer.authorize(caller, request);
          const bool want = expected(user, std::string(verb), std::string(resource.name), ns);
          (decision.allowed ? allowed : denied) += 1;
          if (decision.allowed && !want) ++unauthorised;
          if (!decision.allowed && want) ++wrongly_denied;
          EXPECT_EQ(decision.allowed, want) << decision.why;
          EXPECT_EQ(authorizer.allows(caller, request), want) << decision.why;
        }
      }
    }
  }
  EXPECT_EQ(unauthorised, 0);
  EXPECT_EQ(wrongly_denied, 0);
  const int total = static_cast<int>(users().size() * allot_verbs().size() *
                                     allot_resources().size() * kNamespaces.size());
  EXPECT_EQ(allowed + denied, total);
  RecordProperty("decisions", total);
  RecordProperty("allowed", allowed);
  std::cout << "cross-team matrix: " << total << " decisions, " << allowed << " allowed, " << denied
            << " denied\n";
}

TEST(CrossTeamMatrix, EachUserSeesExactlyItsTeam) {
  const Authorizer authorizer = organisation();
  for (const MatrixUser& user : users()) {
    const NamespaceVisibility seen = visible_namespaces(authorizer, user.principal);
    const std::string who = user.principal.subject;
    switch (user.role) {
      case Held::kClusterAdmin: EXPECT_TRUE(seen.all) << who; break;
      case Held::kNone: EXPECT_EQ(seen, (NamespaceVisibility{false, {}})) << who; break;
      default: EXPECT_EQ(seen, (NamespaceVisibility{false, {user.team}})) << who;
    }
  }
}

}  // namespace
}  // namespace allot
