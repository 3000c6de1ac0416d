// Budgets through the control plane on a manual clock (issue 14, item 3):
// spending from the ledger since the period's start, thresholds alerted once
// each (BudgetAlert objects), stopAdmission making the team's new work wait
// with the reason BudgetExhausted while its running work runs on and other
// teams are admitted, admission resuming in the next period, the forecast,
// and malformed Budget manifests refused naming document and field.
//
// The cluster (kTwoTeamPolicy): flavor gpu at 2 EUR per GPU-hour; the clock
// starts at 2027-01-15T08:00:00Z; February starts 16 days 16 hours later.
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

constexpr const char* kBudget = R"(
---
apiVersion: allot/v1
kind: Budget
metadata: {name: research-monthly}
spec: {team: research, period: monthly, amount: 48, currency: EUR, thresholds: [0.5, 1.0],
       action: stopAdmission}
)";

std::string budget_priced_policy(const std::string& extra = kBudget) {
  std::string policy = kTwoTeamPolicy;
  const std::string flavor = "metadata: {name: gpu}\n";
  policy.replace(policy.find(flavor), flavor.size(),
                 flavor + "spec: {price: {currency: EUR, gpuHour: 2}}\n");
  return policy + extra;
}

class BudgetControl : public ControlPlaneTest {
 protected:
  bool holds(const std::string& ns, const std::string& name) {
    const std::string now = phase(ns, name);
    return now == "Admitted" || now == "Running";
  }

  std::vector<std::string> alerts() {
    std::vector<std::string> names;
    const Result<StoredState> stored = store_.load();
    EXPECT_TRUE(stored.ok());
    if (!stored.ok()) return names;
    for (const ObjectRecord& object : stored->objects) {
      if (object.kind == kBudgetAlertKind) names.push_back(object.name);
    }
    return names;
  }

  nlohmann::json budget_status() {
    const Result<nlohmann::json> budget = calls_->get_object("Budget", "research-monthly");
    EXPECT_TRUE(budget.ok()) << budget.status().to_string();
    return budget.ok() ? (*budget)["status"] : nlohmann::json();
  }

  nlohmann::json explanation(const std::string& ns, const std::string& name) {
    const Result<nlohmann::json> view = calls_->get_workload(ns, name);
    return view.ok() ? (*view)["status"]["explanation"] : nlohmann::json();
  }
};

TEST_F(BudgetControl, AlertsOnceStopsAdmissionAtTheLimitAndResumesNextPeriod) {
  apply_policy(budget_priced_policy());
  const uint64_t r1 = submit(workload_yaml("r1", "research", 4), "research");
  plane_->loop().run_once();
  ASSERT_TRUE(holds("research", "r1"));

  // 3 h x 4 GPUs x 2 EUR = 24 EUR: half the budget. The burn is the period's
  // so far (24 EUR in 347 h since January 1st): the other half in 347 h more.
  clock_.advance(Duration::hours(3));
  plane_->loop().run_once();
  nlohmann::json status = budget_status();
  EXPECT_DOUBLE_EQ(status["spent"].get<double>(), 24);
  EXPECT_DOUBLE_EQ(status["used"].get<double>(), 0.5);
  EXPECT_EQ(status["runsOut"], "2027-01-29T22:00:00.000Z");
  EXPECT_EQ(status["from"], "2027-01-01T00:00:00.000Z");
  EXPECT_EQ(status["stopsAdmission"], false);
  ASSERT_EQ(alerts().size(), 1u);
  EXPECT_NE(alerts()[0].find("/0.5"), std::string::npos);
  const Result<MetricsSnapshot> metrics = plane_->metrics().snapshot(Principal::anonymous_admin());
  ASSERT_TRUE(metrics.ok());
  ASSERT_EQ(metrics->budgets.size(), 1u);
  EXPECT_DOUBLE_EQ(metrics->budgets[0].spent, 24);
  EXPECT_EQ(metrics->budgets[0].team, "research");

  // 6 h: 48 EUR, exhausted. New work of research waits; r1 runs on.
  clock_.advance(Duration::hours(3));
  plane_->loop().run_once();
  submit(workload_yaml("r2", "research", 1), "research");
  submit(workload_yaml("p1", "prod", 1), "prod");
  clock_.advance(Duration::seconds(1));
  plane_->loop().run_once();
  EXPECT_TRUE(holds("research", "r1"));
  EXPECT_TRUE(holds("prod", "p1"));
  EXPECT_EQ(phase("research", "r2"), "Pending");
  const nlohmann::json why = explanation("research", "r2");
  EXPECT_EQ(why["reason"], "BudgetExhausted") << why.dump();
  EXPECT_NE(why["message"].get<std::string>().find("research-monthly"), std::string::npos);
  status = budget_status();
  EXPECT_EQ(status["stopsAdmission"], true);
  EXPECT_EQ(status["exhausted"], true);
  EXPECT_EQ(alerts().size(), 2u);

  // Later evaluations alert nothing again.
  clock_.advance(Duration::minutes(1));
  plane_->loop().run_once();
  EXPECT_EQ(alerts().size(), 2u);
  EXPECT_EQ(phase("research", "r2"), "Pending");

  // February: spending starts again; r2 is admitted.
  clock_.set(Timestamp::from_millis(1'801'440'000'000) + Duration::seconds(5));
  plane_->loop().run_once();
  EXPECT_TRUE(holds("research", "r2"));
  EXPECT_EQ(budget_status()["from"], "2027-02-01T00:00:00.000Z");
  EXPECT_TRUE(holds("research", "r1"));
  (void)r1;
}

TEST_F(BudgetControl, AnAlertOnlyBudgetNeverStopsAdmission) {
  std::string budget = kBudget;
  budget.replace(budget.find("stopAdmission"), 13, "alert");
  apply_policy(budget_priced_policy(budget));
  submit(workload_yaml("r1", "research", 8), "research");
  plane_->loop().run_once();
  clock_.advance(Duration::hours(4));  // 64 EUR of 48
  plane_->loop().run_once();
  submit(workload_yaml("r2", "research", 4), "research");
  clock_.advance(Duration::seconds(1));
  plane_->loop().run_once();
  EXPECT_TRUE(holds("research", "r2"));
  EXPECT_EQ(budget_status()["exhausted"], true);
  EXPECT_EQ(budget_status()["stopsAdmission"], false);
  EXPECT_EQ(alerts().size(), 2u);
}

TEST_F(BudgetControl, AlertsAreNotRepeatedAfterARestart) {
  apply_policy(budget_priced_policy());
  submit(workload_yaml("r1", "research", 4), "research");
  plane_->loop().run_once();
  clock_.advance(Duration::hours(3));
  plane_->loop().run_once();
  ASSERT_EQ(alerts().size(), 1u);
  restart();
  clock_.advance(Duration::seconds(20));
  plane_->loop().run_once();
  EXPECT_EQ(alerts().size(), 1u);
}

std::string example(const std::string& name) {
  std::ifstream in(std::string(ALLOT_SOURCE_DIR) + "/examples/org/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_F(BudgetControl, TheOrgExampleBudgetsApplyAndAreEvaluated) {
  apply_policy(example("policy.yaml") + "\n---\n" + example("budgets.yaml"));
  plane_->loop().run_once();
  const Result<nlohmann::json> budgets = calls_->list_objects("Budget");
  ASSERT_TRUE(budgets.ok()) << budgets.status().to_string();
  ASSERT_EQ((*budgets)["items"].size(), 2u) << budgets->dump();
  for (const auto& budget : (*budgets)["items"]) {
    EXPECT_TRUE(budget.contains("status")) << budget.dump();
  }
}

TEST_F(BudgetControl, MalformedBudgetsAreRefusedNamingDocumentAndField) {
  apply_policy(budget_priced_policy(""));
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"thresholds: [0.5, 1.5]", "spec.thresholds[1]"},
      {"thresholds: [0.8, 0.5]", "spec.thresholds[1]"},
      {"amount: -3", "spec.amount"},
      {"period: yearly", "spec.period"},
      {"period: {from: '2027-02-01T00:00:00Z', to: '2027-01-01T00:00:00Z'}", "spec.period"},
      {"project: vision", "spec.project"},
      {"action: shout", "spec.action"},
  };
  for (const auto& [field, at] : cases) {
    std::string spec = "{team: research, amount: 10, currency: EUR, " + field + "}";
    if (field.starts_with("amount")) spec = "{team: research, currency: EUR, " + field + "}";
    const std::string yaml =
        "apiVersion: allot/v1\nkind: Budget\nmetadata: {name: b}\nspec: " + spec + "\n";
    const Result<ApplyResult> applied = calls_->apply(yaml, false);
    ASSERT_FALSE(applied.ok()) << field;
    EXPECT_EQ(applied.status().code(), ErrorCode::kInvalidArgument) << field;
    EXPECT_NE(applied.status().details().find(at), std::string::npos)
        << field << ": " << applied.status().to_string();
    EXPECT_NE(applied.status().to_string().find("Budget/b"), std::string::npos)
        << applied.status().to_string();
  }
  const Result<ApplyResult> unknown = calls_->apply(
      "apiVersion: allot/v1\nkind: Budget\nmetadata: {name: b}\nspec: {team: nobody, amount: 1, "
      "currency: EUR}\n",
      false);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().to_string().find("Budget/b.spec.team"), std::string::npos)
      << unknown.status().to_string();
}

}  // namespace
}  // namespace allot::testing

namespace allot::testing {
namespace {

// Issue 14: a team's roles read their team's Budgets (in the team's
// namespace), never another team's, and never write one.
TEST_F(BudgetControl, TeamRolesReadTheirTeamsBudgetsAndNoOthers) {
  const std::string prod_budget =
      "---\napiVersion: allot/v1\nkind: Budget\nmetadata: {name: prod-weekly}\n"
      "spec: {team: prod, period: weekly, amount: 10, currency: EUR}\n";
  const std::string viewer =
      "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\n"
      "metadata: {name: viewers, namespace: research}\nsubjects: [{kind: User, name: rv}]\n"
      "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: team-viewer}\n";
  apply_policy(budget_priced_policy(std::string(kBudget) + prod_budget + viewer));
  plane_->loop().run_once();
  const Principal rv = Principal::user("rv");
  const Result<std::vector<PolicyObjectView>> listed =
      plane_->policies().list_objects(rv, "Budget");
  ASSERT_TRUE(listed.ok()) << listed.status().to_string();
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ(listed->at(0).name, "research-monthly");
  EXPECT_TRUE(listed->at(0).budget.has_value());  // with its standing
  EXPECT_TRUE(plane_->policies().get_object(rv, "Budget", "research-monthly").ok());
  EXPECT_EQ(plane_->policies().get_object(rv, "Budget", "prod-weekly").status().code(),
            ErrorCode::kPermissionDenied);
  EXPECT_EQ(plane_->policies().get_object(rv, "Budget", "nope").status().code(),
            ErrorCode::kPermissionDenied);  // no existence oracle
  EXPECT_FALSE(plane_->policies().delete_object(rv, "Budget", "research-monthly").ok());
  // Someone with no binding lists nothing: denied, as before.
  EXPECT_EQ(plane_->policies().list_objects(Principal::user("nobody"), "Budget").status().code(),
            ErrorCode::kPermissionDenied);
  // The cluster-admin sees both.
  const Result<std::vector<PolicyObjectView>> all =
      plane_->policies().list_objects(Principal::system(), "Budget");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 2u);
}

}  // namespace
}  // namespace allot::testing
