// Budgets on /metrics (issue 14, items 3 and 4): a project Budget's series
// carry `project` and show to exactly who reads that Budget through the API
// (budget_visibility.h, one rule for both): the Contract's owners, the roles
// that read budgets in the Contract's namespaces and a cluster admin, never
// another team; a team Budget's carry `team`, as before. A deleted Budget's
// series are gone at once, before the budget monitor's next evaluation.
//
// The cluster: kTwoTeamPolicy governed by an Organization, the Contract
// research-local over namespace research (owners: ana by name, ml-ops by
// group), GPUs at 2 EUR per hour; rv views research, pv views prod.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "../server/shell_command.h"
#include "contract_control_fixture.h"
#include "service/control/budget_visibility.h"
#include "service/metrics/prometheus_text.h"

namespace allot::testing {
namespace {

std::string viewer_binding(const std::string& user, const std::string& ns) {
  return "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: " +
         user + ", namespace: " + ns + "}\nsubjects: [{kind: User, name: " + user +
         "}]\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "
         "team-viewer}\n";
}

constexpr const char* kBudgets =
    "apiVersion: allot/v1\nkind: Budget\nmetadata: {name: research-project}\n"
    "spec: {project: research-local, period: monthly, amount: 20, currency: EUR}\n---\n"
    "apiVersion: allot/v1\nkind: Budget\nmetadata: {name: prod-weekly}\n"
    "spec: {team: prod, period: weekly, amount: 10, currency: EUR}\n";

class BudgetMetrics : public ContractControl {
 protected:
  // research's 4 GPUs ran 1 h: the project has spent 8 EUR of its 20.
  void SetUp() override {
    ContractControl::SetUp();
    std::string priced = governed_policy();
    const std::string flavor = "metadata: {name: gpu}\n";
    priced.replace(priced.find(flavor), flavor.size(),
                   flavor + "spec: {price: {currency: EUR, gpuHour: 2}}\n");
    ASSERT_TRUE(
        apply_as_admin(priced + viewer_binding("rv", "research") + viewer_binding("pv", "prod"))
            .ok());
    ASSERT_TRUE(apply_as("ana", contract_yaml("research-local", "research")).ok());
    ASSERT_EQ(*act("bob", "research-local", ContractAction::kApprove, "data reviewed"), "Approved");
    ASSERT_EQ(*act("ana", "research-local", ContractAction::kActivate), "Active");
    submit(workload_yaml("r1", "research", 4), "research");
    plane_->loop().run_once();
    ASSERT_TRUE(holds("research", "r1"));
    clock_.advance(Duration::hours(1));
    const Status budgets = apply_as_admin(kBudgets);
    ASSERT_TRUE(budgets.ok()) << budgets.to_string();
    plane_->loop().run_once();
  }

  // The /metrics text `who` gets, or the error's text.
  std::string scrape(const Principal& who) {
    const Result<MetricsSnapshot> s = plane_->metrics().snapshot(who);
    return s.ok() ? render_prometheus(*s) : "error: " + s.status().to_string();
  }

  // Whether the API lets `who` get the Budget `name`.
  bool api_reads(const Principal& who, const std::string& name) {
    return plane_->policies().get_object(who, "Budget", name).ok();
  }
};

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos;
}

constexpr const char* kProjectSpent =
    R"(allot_budget_spent{budget="research-project",project="research-local",currency="EUR"} 8)";
constexpr const char* kProjectAmount =
    R"(allot_budget_amount{budget="research-project",project="research-local",currency="EUR"} 20)";
constexpr const char* kProjectRatio =
    R"(allot_budget_used_ratio{budget="research-project",project="research-local"} 0.4)";

TEST_F(BudgetMetrics, AProjectBudgetsSeriesCarryItsProjectForItsReadersOnly) {
  struct Caller {
    Principal who;
    bool reads;  // the project budget's readers (the API's rule)
  };
  const std::vector<Caller> callers = {
      {Principal::user("ana"), true},               // the contract's business owner, by name
      {Principal::user("olga", {"ml-ops"}), true},  // its operations owner, by group
      {Principal::user("rv"), true},                // a viewer in the contract's namespace
      {Principal::user("pv"), false},               // another team
      {Principal::anonymous_admin(), true},         // the cluster admin
  };
  for (const Caller& caller : callers) {
    SCOPED_TRACE(caller.who.subject);
    ASSERT_EQ(api_reads(caller.who, "research-project"), caller.reads) << "the API's rule";
    const std::string text = scrape(caller.who);
    for (const char* line : {kProjectSpent, kProjectAmount, kProjectRatio}) {
      EXPECT_EQ(has_line(text, line), caller.reads) << line << "\n" << text;
    }
    if (!caller.reads) {
      EXPECT_EQ(text.find("research-project"), std::string::npos) << text;
      EXPECT_EQ(text.find("research-local"), std::string::npos) << text;
    }
  }
  // The team budget keeps its `team` label, for its team and the admin only.
  const std::string prod =
      R"(allot_budget_amount{budget="prod-weekly",team="prod",currency="EUR"} 10)";
  EXPECT_TRUE(has_line(scrape(Principal::user("pv")), prod));
  EXPECT_TRUE(has_line(scrape(Principal::anonymous_admin()), prod));
  for (const char* who : {"ana", "rv"}) {
    EXPECT_EQ(scrape(Principal::user(who)).find("prod-weekly"), std::string::npos) << who;
  }
}

// An owner of the contract with no team role gets /metrics with its budgets
// only: no team's quota, nothing of the cluster.
TEST_F(BudgetMetrics, AContractOwnerWithoutATeamRoleSeesItsBudgetsOnly) {
  const Result<MetricsSnapshot> s = plane_->metrics().snapshot(Principal::user("ana"));
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  ASSERT_EQ(s->budgets.size(), 1u);
  EXPECT_EQ(s->budgets[0].name, "research-project");
  EXPECT_EQ(s->budgets[0].project, "research-local");
  EXPECT_TRUE(s->budgets[0].team.empty());
  EXPECT_TRUE(s->quotas.empty());
  EXPECT_TRUE(s->costs.empty());
  EXPECT_FALSE(s->cluster.has_value());
  EXPECT_EQ(plane_->metrics().snapshot(Principal::user("mallory")).status().code(),
            ErrorCode::kPermissionDenied);
}

// Deleting a Budget takes its series off /metrics at once: no evaluation
// (no loop pass, no clock step) between the delete and the scrape.
TEST_F(BudgetMetrics, ADeletedBudgetsSeriesAreGoneAtOnce) {
  ASSERT_TRUE(has_line(scrape(Principal::anonymous_admin()), kProjectSpent));
  const Status deleted =
      plane_->policies().delete_object(Principal::anonymous_admin(), "Budget", "research-project");
  ASSERT_TRUE(deleted.ok()) << deleted.to_string();
  for (const Principal& who : {Principal::anonymous_admin(), Principal::user("rv")}) {
    const std::string text = scrape(who);
    EXPECT_EQ(text.find("research-project"), std::string::npos) << who.subject << "\n" << text;
  }
  EXPECT_TRUE(
      has_line(scrape(Principal::anonymous_admin()),
               R"(allot_budget_amount{budget="prod-weekly",team="prod",currency="EUR"} 10)"));
}

// Debian's promtool accepts the text with both kinds of budget series (a
// family's samples with `team` or `project`), lint included.
TEST_F(BudgetMetrics, PromtoolAcceptsTeamAndProjectBudgetSeries) {
  const std::string text = scrape(Principal::anonymous_admin());
  ASSERT_TRUE(has_line(text, kProjectSpent)) << text;
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("allot-budget-metrics-" + std::to_string(::getpid()) + ".txt");
  std::ofstream(path) << text;
  const auto [status, output] = server_test::run_shell("promtool check metrics < " + path.string());
  std::filesystem::remove(path);
  EXPECT_EQ(status, 0) << output;
  EXPECT_EQ(output, "") << "promtool's lint findings";
}

}  // namespace
}  // namespace allot::testing
