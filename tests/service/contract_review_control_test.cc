// Contract reviews through the control plane on a manual clock (issue 15,
// item 5): due on the contract's interval and on events (owners, roles,
// classification, the cluster's capacity or version, a monitoring signal
// without data), the owners notified by
// an audit record and a webhook POSTed to a real loopback server through the
// signals' webhook worker (sent again after a restart), an overdue review
// stopping new admissions.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "contract_control_fixture.h"
#include "governance/audit_event.h"
#include "hook_server.h"
#include "service/control/http_webhook_sender.h"
#include "service/control/review_notices.h"

namespace allot::testing {
namespace {

// Reviews (issue 15, item 5) with the owners' notices POSTed to a real
// loopback server through the signals' webhook worker.
class ContractReviewControl : public ContractControl {
 protected:
  ContractReviewControl() {
    webhook_sender_ = &sender_;
    audit_sink_ = [this](governance::AuditEvent event) { audited_.push_back(std::move(event)); };
    restart();
  }

  // Applies contract `name` of `ns` with a reviewWebhook, approved and active.
  void activate(const std::string& name, const std::string& ns, const std::string& url,
                const std::string& owner = "ana") {
    ASSERT_TRUE(apply_as("ana", contract_yaml(name, ns, "internal", "[Job, TrainingJob]", owner) +
                                    "  reviewWebhook: " + url + "\n")
                    .ok());
    ASSERT_TRUE(act("bob", name, ContractAction::kApprove).ok());
    ASSERT_TRUE(act("bob", name, ContractAction::kActivate).ok());
  }

  nlohmann::json status_of(const std::string& name) {
    const Result<nlohmann::json> contract = calls_->get_object("Contract", name);
    return contract.ok() ? (*contract)["status"] : nlohmann::json();
  }

  // The review records of system:allotd on `contract`.
  std::vector<std::string> review_records(const std::string& contract) {
    std::vector<std::string> out;
    for (const governance::AuditEvent& event : audited_) {
      if (event.verb == "review" && event.username == "system:allotd" && event.object_ref &&
          event.object_ref->name == contract) {
        out.push_back(event.response_message);
      }
    }
    return out;
  }

  std::vector<nlohmann::json> stored_notices() {
    std::vector<nlohmann::json> out;
    const Result<StoredState> stored = store_.load();
    if (!stored.ok()) return out;
    for (const ObjectRecord& object : stored->objects) {
      if (object.kind == kContractReviewEventKind) {
        out.push_back(nlohmann::json::parse(object.document));
      }
    }
    return out;
  }

  HttpWebhookSender sender_{Duration::seconds(2)};
  std::vector<governance::AuditEvent> audited_;
};

TEST_F(ContractReviewControl, TheIntervalOpensTheReviewNotifiesTheOwnersAndOverdueStopsAdmission) {
  HookServer hook(1);
  apply_policy(governed_policy());
  activate("r", "research", hook.url());
  // Due after 30 days, grace 7 more. On day 29 nothing happens.
  clock_.advance(Duration::hours(24 * 29));
  plane_->loop().run_once();
  EXPECT_EQ(status_of("r")["phase"], "Active");
  EXPECT_TRUE(review_records("r").empty());

  // Day 30, on the loop's (manual) clock: UnderReview by system:allotd.
  clock_.advance(Duration::hours(24));
  plane_->loop().run_once();
  const nlohmann::json status = status_of("r");
  EXPECT_EQ(status["phase"], "UnderReview");
  const nlohmann::json& step = status["history"].back();
  EXPECT_EQ(step["action"], "review");
  EXPECT_EQ(step["by"], "system:allotd");
  EXPECT_NE(step["reason"].get<std::string>().find("review interval"), std::string::npos)
      << step.dump();
  ASSERT_EQ(review_records("r").size(), 1u) << "audited once";
  EXPECT_NE(review_records("r")[0].find("owners notified"), std::string::npos);

  // The owners' webhook: the first POST fails, the retry after the backoff
  // takes it; the stored notice is then marked delivered.
  plane_->webhooks().deliver_due();
  ASSERT_EQ(hook.bodies().size(), 1u);
  clock_.advance(Duration::seconds(1));
  plane_->webhooks().deliver_due();
  ASSERT_EQ(hook.bodies().size(), 2u);
  const nlohmann::json body = nlohmann::json::parse(hook.bodies()[1]);
  EXPECT_EQ(body["kind"], "ContractReviewDue");
  EXPECT_EQ(body["contract"], "r");
  EXPECT_EQ(body["project"], "research-project");
  EXPECT_EQ(body["owners"]["business"], "ana");
  EXPECT_EQ(body["owners"]["exceptionOwner"], "ml-ops");
  EXPECT_EQ(body["reviewGraceEnds"], status["reviewGraceEnds"]);
  plane_->loop().run_once();
  ASSERT_EQ(stored_notices().size(), 1u);
  EXPECT_TRUE(stored_notices()[0]["delivered"].get<bool>());
  EXPECT_EQ(hook.bodies().size(), 2u) << "delivered once it was taken";

  // Within the grace work is admitted; past it, new work waits.
  clock_.advance(Duration::hours(24 * 6));
  submit(workload_yaml("a", "research", 1), "research");
  plane_->loop().run_once();
  EXPECT_TRUE(holds("research", "a"));
  clock_.advance(Duration::hours(24));
  submit(workload_yaml("b", "research", 1), "research");
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "b"), "Pending");
  EXPECT_EQ(explanation("research", "b")["reason"], "ReviewOverdue");
  EXPECT_TRUE(holds("research", "a")) << "running work runs on";
  EXPECT_EQ(*act("ana", "r", ContractAction::kRenew, "still needed"), "Active");
  clock_.advance(Duration::seconds(1));
  plane_->loop().run_once();
  EXPECT_TRUE(holds("research", "b"));
}

TEST_F(ContractReviewControl, OwnerCapacityAndClassificationChangesOpenReviewsWhileOthersStay) {
  HookServer hook(0);
  apply_policy(governed_policy());
  activate("r", "research", hook.url());
  activate("p", "prod", hook.url());

  // An owner of r changes: r's review opens with the change; p stays Active.
  ASSERT_TRUE(
      apply_as("ana", contract_yaml("r", "research", "internal", "[Job, TrainingJob]", "bob") +
                          "  reviewWebhook: " + hook.url() + "\n")
          .ok());
  EXPECT_EQ(status_of("r")["phase"], "UnderReview");
  EXPECT_NE(status_of("r")["history"].back()["reason"].get<std::string>().find(
                "its spec changed (owners)"),
            std::string::npos)
      << status_of("r");
  EXPECT_EQ(status_of("p")["phase"], "Active");
  // The review opened by the event is due now: its grace runs from it.
  EXPECT_EQ(status_of("r")["reviewGraceEnds"],
            format_rfc3339(clock_.now() + Duration::hours(24 * 7)));

  // The cluster's capacity changes (a third node): p's review opens too.
  std::string bigger = governed_policy();
  bigger.replace(bigger.find("count: 2"), 8, "count: 3");
  apply_policy(bigger);
  EXPECT_EQ(status_of("p")["phase"], "UnderReview");
  EXPECT_NE(status_of("p")["history"].back()["reason"].get<std::string>().find(
                "cluster local's capacity changed"),
            std::string::npos)
      << status_of("p");
  EXPECT_EQ(review_records("p").size(), 1u);
  EXPECT_EQ(review_records("r").size(), 1u) << "r was under review already";

  // Renewed, then the cluster's classification changes: reviewed again.
  EXPECT_EQ(*act("bob", "p", ContractAction::kRenew, "capacity checked"), "Active");
  std::string raised = bigger;
  raised.replace(raised.find("maxDataClassification: internal"), 31,
                 "maxDataClassification: confidential");
  apply_policy(raised);
  EXPECT_EQ(status_of("p")["phase"], "UnderReview");
  EXPECT_NE(status_of("p")["history"].back()["reason"].get<std::string>().find(
                "maxDataClassification changed"),
            std::string::npos);
  EXPECT_EQ(review_records("p").size(), 2u);

  // What may not change in force is still refused.
  EXPECT_EQ(apply_as("ana", contract_yaml("p", "prod", "internal", "[Job]")).code(),
            ErrorCode::kFailedPrecondition);

  // Three notices, stored and POSTed.
  EXPECT_EQ(stored_notices().size(), 3u);
  plane_->loop().run_once();
  plane_->webhooks().deliver_due();
  EXPECT_EQ(hook.bodies().size(), 3u);
}

TEST_F(ContractReviewControl, AnUndeliveredNoticeIsSentAgainAfterARestart) {
  HookServer hook(1);
  apply_policy(governed_policy());
  activate("r", "research", hook.url());
  clock_.advance(Duration::hours(24 * 30));
  plane_->loop().run_once();
  plane_->webhooks().deliver_due();
  ASSERT_EQ(hook.bodies().size(), 1u) << "refused by the receiver";
  restart();
  plane_->webhooks().deliver_due();
  ASSERT_EQ(hook.bodies().size(), 2u);
  EXPECT_EQ(nlohmann::json::parse(hook.bodies()[1])["contract"], "r");
  plane_->loop().run_once();
  ASSERT_EQ(stored_notices().size(), 1u);
  EXPECT_TRUE(stored_notices()[0]["delivered"].get<bool>());
  EXPECT_EQ(status_of("r")["phase"], "UnderReview");
}
// A Budget's series watched by a Signal that a contract names in its
// monitoringSignals (docs/governance.md, Reviews).
constexpr const char* kMonitoredBudget = R"(
---
apiVersion: allot/v1
kind: Budget
metadata: {name: research-monthly}
spec: {team: research, period: monthly, amount: 48, currency: EUR, thresholds: [0.5], action: alert}
---
apiVersion: allot/v1
kind: Signal
metadata: {name: research-spend}
spec: {expression: 'allot_budget_used_ratio{budget="research-monthly"} > 0.8', for: 0s,
       owner: research-leads, response: {text: Look at the spend}}
---
apiVersion: allot/v1
kind: Signal
metadata: {name: prod-spend}
spec: {expression: 'allot_budget_used_ratio{budget="prod-monthly"} > 0.8', for: 0s,
       owner: prod-leads, response: {text: Look at the spend}}
)";

TEST_F(ContractReviewControl, AMonitoringSignalThatLosesItsDataOpensTheReview) {
  HookServer hook(0);
  std::string policy = governed_policy();
  const std::string flavor = "metadata: {name: gpu}\n";
  policy.replace(policy.find(flavor), flavor.size(),
                 flavor + "spec: {price: {currency: EUR, gpuHour: 2}}\n");
  apply_policy(policy + kMonitoredBudget);
  const std::string monitored = "  monitoringSignals: [research-spend, prod-spend]\n";
  ASSERT_TRUE(apply_as("ana", contract_yaml("r", "research") + monitored).ok());
  ASSERT_TRUE(act("bob", "r", ContractAction::kApprove).ok());
  ASSERT_TRUE(act("bob", "r", ContractAction::kActivate).ok());

  // research-spend has data at every sample; prod-spend never had any (no
  // prod budget): neither opens a review.
  for (int i = 0; i < 3; ++i) {
    clock_.advance(Duration::seconds(15));
    plane_->loop().run_once();
  }
  EXPECT_EQ(status_of("r")["phase"], "Active");

  // Naming an unknown Signal is refused, and a monitored Signal cannot be
  // deleted while the contract names it.
  const Status unknown =
      apply_as("ana", contract_yaml("x", "prod") + "  monitoringSignals: [nothing]\n");
  EXPECT_EQ(unknown.code(), ErrorCode::kInvalidArgument) << unknown.to_string();
  EXPECT_NE(unknown.details().find("Contract/x.spec.monitoringSignals[0]"), std::string::npos)
      << unknown.to_string();
  const Status monitored_delete =
      plane_->policies().delete_object(Principal::anonymous_admin(), "Signal", "research-spend");
  EXPECT_EQ(monitored_delete.code(), ErrorCode::kFailedPrecondition)
      << monitored_delete.to_string();

  // The budget goes. Its figures leave /metrics at once (not at the budget
  // monitor's next evaluation), so the first sample after the delete finds
  // research-spend without data: the contract's review opens with the
  // reason, audited once.
  ASSERT_TRUE(plane_->policies()
                  .delete_object(Principal::anonymous_admin(), "Budget", "research-monthly")
                  .ok());
  EXPECT_EQ(status_of("r")["phase"], "Active");
  clock_.advance(Duration::seconds(15));
  plane_->loop().run_once();
  const nlohmann::json status = status_of("r");
  EXPECT_EQ(status["phase"], "UnderReview");
  EXPECT_EQ(status["history"].back()["by"], "system:allotd");
  EXPECT_EQ(status["history"].back()["reason"],
            "review due: monitoring coverage dropped: signal research-spend has no data");
  EXPECT_EQ(review_records("r").size(), 1u);
  ASSERT_EQ(stored_notices().size(), 1u);
  EXPECT_EQ(stored_notices()[0]["reason"], status["history"].back()["reason"]);
}
}  // namespace
}  // namespace allot::testing
