// The request-and-approve step of PolicyExceptions through the control plane
// on a manual clock (issue 15, item 6): a team-admin requests a quota
// exception, which is not in force (work stays pending) until its approver
// approves it; the requester, the owner and a stranger cannot decide it; a
// rejection is final; a spec change by the team re-opens an approved
// request; the status survives a restart; a request left undecided past its
// expiry is Expired (never in force, no longer decided) until applied again
// with a later expiry. A quota exception's approval and its end by expiry are
// in the team's quota history (the Teams chart's line).
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "exception_fixture.h"
#include "service/control/team_stats.h"

namespace allot::testing {
namespace {

// kLoneTeamPolicy with tara its team-admin.
constexpr const char* kTeamAdmin = R"(
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: admins, namespace: research}
subjects: [{kind: User, name: tara}]
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: team-admin}
)";

// The fixture's clock starts at 2027-01-15T08:00:00Z.
std::string requested_exception(const std::string& name, const std::string& relaxes) {
  return exception_yaml(name, relaxes, "2027-01-16T08:00:00Z");
}

class ExceptionRequestControl : public ExceptionFixture {
 protected:
  Result<ApplyResult> apply_as(const std::string& who, const std::string& yaml) {
    Result<ParsedManifests> parsed = parse_manifests_with_documents(yaml);
    if (!parsed.ok()) return parsed.status();
    return plane_->policies().apply(Principal::user(who), *parsed, false);
  }

  Result<PolicyObjectView> decide(const std::string& who, const std::string& name,
                                  ExceptionAction action, const std::string& reason = "ok") {
    return plane_->exceptions().decide(Principal::user(who), name, action, reason);
  }

  // The Teams view's row of research; nullptr when it has none.
  static const TeamStatsRow* research_row(const TeamStatsView& stats) {
    const auto row = std::find_if(stats.teams.begin(), stats.teams.end(),
                                  [](const TeamStatsRow& r) { return r.team == "research"; });
    return row == stats.teams.end() ? nullptr : &*row;
  }

  nlohmann::json exception_status(const std::string& name) {
    const Result<nlohmann::json> object = calls_->get_object("PolicyException", name);
    EXPECT_TRUE(object.ok()) << object.status().to_string();
    return object.ok() ? (*object)["status"] : nlohmann::json();
  }
};

TEST_F(ExceptionRequestControl, ARequestedQuotaExceptionAppliesOnlyOnceItsApproverApproves) {
  apply_policy(std::string(kLoneTeamPolicy) + kTeamAdmin);
  const std::string burst =
      requested_exception("burst", "{quota: {flavor: gpu, resources: {gpu: 8}}}");
  const Result<ApplyResult> requested = apply_as("tara", burst);
  ASSERT_TRUE(requested.ok()) << requested.status().to_string();
  nlohmann::json status = exception_status("burst");
  EXPECT_EQ(status["phase"], "Requested") << status.dump();
  EXPECT_EQ(status["requestedBy"], "tara");
  EXPECT_FALSE(status.contains("decidedBy"));

  submit(workload_yaml("r1", "research", 8), "research");
  submit(workload_yaml("r2", "research", 8), "research");
  plane_->loop().run_once();
  EXPECT_TRUE(holds("r1"));
  EXPECT_EQ(phase("research", "r2"), "Pending") << "a requested exception is not in force";

  // The requester, the owner and a stranger cannot decide it.
  for (const char* who : {"tara", "ana", "carol"}) {
    EXPECT_EQ(decide(who, "burst", ExceptionAction::kApprove).status().code(),
              ErrorCode::kPermissionDenied)
        << who;
  }
  EXPECT_EQ(decide("bob", "burst", ExceptionAction::kApprove, "").status().code(),
            ErrorCode::kInvalidArgument)
      << "a decision needs a reason";
  EXPECT_EQ(decide("bob", "missing", ExceptionAction::kApprove).status().code(),
            ErrorCode::kNotFound);

  const Result<PolicyObjectView> approved =
      decide("bob", "burst", ExceptionAction::kApprove, "one week for the paper");
  ASSERT_TRUE(approved.ok()) << approved.status().to_string();
  ASSERT_TRUE(approved->exception.has_value());
  EXPECT_EQ(approved->exception->phase, ExceptionPhase::kApproved);
  plane_->loop().run_once();
  EXPECT_TRUE(holds("r2")) << "16 GPUs: 8 of quota and 8 of the approved exception";
  status = exception_status("burst");
  EXPECT_EQ(status["phase"], "Approved") << status.dump();
  EXPECT_EQ(status["decidedBy"], "bob");
  ASSERT_EQ(status["history"].size(), 2u) << status.dump();
  EXPECT_EQ(status["history"][1]["action"], "approve");
  EXPECT_EQ(status["history"][1]["by"], "bob");
  EXPECT_EQ(status["history"][1]["reason"], "one week for the paper");
  EXPECT_EQ(status["history"][1]["at"], "2027-01-15T08:00:00.000Z");

  // Approved: no second decision.
  EXPECT_EQ(decide("bob", "burst", ExceptionAction::kReject).status().code(),
            ErrorCode::kFailedPrecondition);
}

TEST_F(ExceptionRequestControl, ARejectedRequestNeverAppliesAndIsFinal) {
  apply_policy(std::string(kLoneTeamPolicy) + kTeamAdmin);
  const std::string urgent = requested_exception("urgent", "{priorityClass: urgent}");
  ASSERT_TRUE(apply_as("tara", urgent).ok());
  const Result<std::string> before =
      calls_->create_workload("research", workload_yaml("u1", "research", 1, 1, "urgent"));
  EXPECT_FALSE(before.ok()) << "not in force while requested";

  const Result<PolicyObjectView> rejected =
      decide("bob", "urgent", ExceptionAction::kReject, "use the low class");
  ASSERT_TRUE(rejected.ok()) << rejected.status().to_string();
  const nlohmann::json status = exception_status("urgent");
  EXPECT_EQ(status["phase"], "Rejected") << status.dump();
  EXPECT_EQ(status["decidedBy"], "bob");
  EXPECT_FALSE(
      calls_->create_workload("research", workload_yaml("u2", "research", 1, 1, "urgent")).ok());
  EXPECT_EQ(decide("bob", "urgent", ExceptionAction::kApprove).status().code(),
            ErrorCode::kFailedPrecondition);
  std::string changed = urgent;
  changed.replace(changed.find("paper deadline"), 14, "a new deadline");
  EXPECT_EQ(apply_as("tara", changed).status().code(), ErrorCode::kFailedPrecondition)
      << "a rejected exception's spec does not change";
}

TEST_F(ExceptionRequestControl, AStrangerCannotRequestAndTheApproverAppliesInForce) {
  apply_policy(std::string(kLoneTeamPolicy) + kTeamAdmin);
  EXPECT_EQ(apply_as("carol", requested_exception("x", "{priorityClass: urgent}")).status().code(),
            ErrorCode::kPermissionDenied);
  // The owner may request by name; the approver's own apply is in force at once.
  ASSERT_TRUE(apply_as("ana", requested_exception("by-owner", "{priorityClass: urgent}")).ok());
  EXPECT_EQ(exception_status("by-owner")["phase"], "Requested");
  ASSERT_TRUE(plane_->scim().create(scim::ResourceKind::kUser, {{"userName", "bob"}}).ok());
  apply_policy(R"(apiVersion: allot/v1
kind: ClusterRoleBinding
metadata: {name: approvers}
subjects: [{kind: User, name: bob}]
roleRef: {kind: ClusterRole, name: contract-approver}
)");
  ASSERT_TRUE(apply_as("bob", requested_exception("by-bob", "{priorityClass: urgent}")).ok());
  const nlohmann::json status = exception_status("by-bob");
  EXPECT_EQ(status["phase"], "Approved") << status.dump();
  EXPECT_EQ(status["decidedBy"], "bob");
  EXPECT_TRUE(
      calls_->create_workload("research", workload_yaml("u1", "research", 1, 1, "urgent")).ok());
}

TEST_F(ExceptionRequestControl, ASpecChangeReopensTheRequestAndARestartKeepsTheStatus) {
  apply_policy(std::string(kLoneTeamPolicy) + kTeamAdmin);
  ASSERT_TRUE(
      apply_as("tara", requested_exception("burst", "{quota: {flavor: gpu, resources: {gpu: 8}}}"))
          .ok());
  ASSERT_TRUE(decide("bob", "burst", ExceptionAction::kApprove).ok());
  submit(workload_yaml("r1", "research", 8), "research");
  submit(workload_yaml("r2", "research", 8), "research");
  plane_->loop().run_once();
  EXPECT_TRUE(holds("r1"));
  EXPECT_TRUE(holds("r2"));

  // The team asks for more: back to Requested, the approved 8 no longer apply.
  clock_.advance(Duration::minutes(1));
  ASSERT_TRUE(
      apply_as("tara", requested_exception("burst", "{quota: {flavor: gpu, resources: {gpu: 16}}}"))
          .ok());
  nlohmann::json status = exception_status("burst");
  EXPECT_EQ(status["phase"], "Requested") << status.dump();
  EXPECT_EQ(status["history"].back()["reason"], "spec changed");

  restart();
  status = exception_status("burst");
  EXPECT_EQ(status["phase"], "Requested") << "the status survives a restart: " << status.dump();
  EXPECT_EQ(status["requestedBy"], "tara");
  EXPECT_EQ(status["history"].size(), 3u) << status.dump();  // request, approve, request
  submit(workload_yaml("r3", "research", 8), "research");
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "r3"), "Pending") << "not in force after the restart either";

  ASSERT_TRUE(decide("bob", "burst", ExceptionAction::kApprove, "fine, 16").ok());
  plane_->loop().run_once();
  EXPECT_TRUE(holds("r3")) << "24 GPUs: 8 of quota and 16 of the exception";
  restart();
  status = exception_status("burst");
  EXPECT_EQ(status["phase"], "Approved") << status.dump();
  EXPECT_EQ(status["history"].back()["reason"], "fine, 16");

  // Past its expiry the approved exception is shown Expired (status and
  // list), out of force; the stored phase stays Approved, so a restart shows
  // it Expired again.
  clock_.advance(Duration::hours(24));
  status = exception_status("burst");
  EXPECT_EQ(status["phase"], "Expired") << status.dump();
  EXPECT_EQ(status["decidedBy"], "bob");
  const Result<std::vector<PolicyObjectView>> listed =
      plane_->policies().list_objects(Principal::anonymous_admin(), "PolicyException", "");
  ASSERT_TRUE(listed.ok()) << listed.status().to_string();
  ASSERT_EQ(listed->size(), 1u);
  ASSERT_TRUE(listed->front().exception.has_value());
  EXPECT_EQ(listed->front().exception->phase, ExceptionPhase::kExpired) << "listed so too";
  restart();
  EXPECT_EQ(exception_status("burst")["phase"], "Expired") << "after a restart too";
}

TEST_F(ExceptionRequestControl, ARequestLeftUndecidedPastItsExpiryIsExpired) {
  apply_policy(std::string(kLoneTeamPolicy) + kTeamAdmin);
  ASSERT_TRUE(
      apply_as("tara", requested_exception("late", "{quota: {flavor: gpu, resources: {gpu: 8}}}"))
          .ok());
  submit(workload_yaml("r1", "research", 8), "research");
  submit(workload_yaml("r2", "research", 8), "research");
  plane_->loop().run_once();
  EXPECT_TRUE(holds("r1"));

  // One millisecond before its expiry it is still Requested; at it, Expired.
  clock_.advance(Duration::hours(24) - Duration::millis(1));
  EXPECT_EQ(exception_status("late")["phase"], "Requested");
  clock_.advance(Duration::millis(1));
  nlohmann::json status = exception_status("late");
  EXPECT_EQ(status["phase"], "Expired") << status.dump();
  EXPECT_EQ(status["requestedBy"], "tara");
  EXPECT_FALSE(status.contains("decidedBy"));
  const Result<std::vector<PolicyObjectView>> listed =
      plane_->policies().list_objects(Principal::anonymous_admin(), "PolicyException", "");
  ASSERT_TRUE(listed.ok()) << listed.status().to_string();
  ASSERT_EQ(listed->size(), 1u);
  ASSERT_TRUE(listed->front().exception.has_value());
  EXPECT_EQ(listed->front().exception->phase, ExceptionPhase::kExpired) << "listed so too";
  for (const ExceptionAction action : {ExceptionAction::kApprove, ExceptionAction::kReject}) {
    const Result<PolicyObjectView> late = decide("bob", "late", action, "sorry, late");
    EXPECT_EQ(late.status().code(), ErrorCode::kFailedPrecondition);
    EXPECT_NE(late.status().message().find("the exception is Expired"), std::string::npos)
        << late.status().to_string();
  }
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "r2"), "Pending") << "an expired request is never in force";
  restart();
  EXPECT_EQ(exception_status("late")["phase"], "Expired") << "after a restart too";

  // Applied again with a later expiry: Requested, and its approval applies.
  ASSERT_TRUE(apply_as("tara", exception_yaml("late", "{quota: {flavor: gpu, resources: {gpu: 8}}}",
                                              "2027-01-20T08:00:00Z"))
                  .ok());
  EXPECT_EQ(exception_status("late")["phase"], "Requested");
  ASSERT_TRUE(decide("bob", "late", ExceptionAction::kApprove, "renewed in time").ok());
  plane_->loop().run_once();
  EXPECT_TRUE(holds("r2"));
}

TEST_F(ExceptionRequestControl, AnApprovedQuotaExceptionIsInTheTeamsQuotaHistoryFromItsApproval) {
  const Timestamp start = clock_.now();
  apply_policy(std::string(kLoneTeamPolicy) + kTeamAdmin);
  ASSERT_TRUE(
      apply_as("tara", requested_exception("burst", "{quota: {flavor: gpu, resources: {gpu: 8}}}"))
          .ok());
  clock_.advance(Duration::minutes(5));
  ASSERT_TRUE(decide("bob", "burst", ExceptionAction::kApprove, "paper").ok());
  clock_.advance(Duration::minutes(5));
  const Result<TeamStatsView> stats =
      plane_->team_stats().stats(Principal::anonymous_admin(), parse_stats_range("1h").value());
  ASSERT_TRUE(stats.ok()) << stats.status().to_string();
  const TeamStatsRow* research = research_row(*stats);
  ASSERT_NE(research, nullptr);
  EXPECT_EQ(research->nominal_gpus, 16);
  // Bucket i ends at start + (i - 49) minutes: nothing before the first
  // apply, 8 (the requested exception is not in force) until the approval.
  ASSERT_EQ(research->quota_series.size(), 60u);
  EXPECT_FALSE(research->quota_series[48].has_value());
  for (size_t i = 49; i < 60; ++i) {
    ASSERT_TRUE(research->quota_series[i].has_value()) << i;
    EXPECT_EQ(research->quota_series[i]->nominal, i < 54 ? 8 : 16) << i;
  }
  EXPECT_EQ(stats->to, start + Duration::minutes(10));
}

TEST_F(ExceptionRequestControl, AQuotaExceptionThatExpiresLeavesTheTeamsQuotaHistoryWhenItEnds) {
  const Timestamp start = clock_.now();
  apply_policy(std::string(kLoneTeamPolicy) + kTeamAdmin);
  ASSERT_TRUE(
      apply_as("tara", exception_yaml("burst", "{quota: {flavor: gpu, resources: {gpu: 8}}}",
                                      "2027-01-15T08:30:00Z"))
          .ok());
  clock_.advance(Duration::minutes(5));
  ASSERT_TRUE(decide("bob", "burst", ExceptionAction::kApprove, "paper").ok());
  clock_.advance(Duration::minutes(26));  // one minute past its expiry
  plane_->loop().run_once();              // the loop sees it end; nothing else changes
  clock_.advance(Duration::minutes(4));
  const Result<TeamStatsView> stats =
      plane_->team_stats().stats(Principal::anonymous_admin(), parse_stats_range("1h").value());
  ASSERT_TRUE(stats.ok()) << stats.status().to_string();
  const TeamStatsRow* research = research_row(*stats);
  ASSERT_NE(research, nullptr);
  EXPECT_EQ(research->nominal_gpus, 8) << "the exception is no longer in force";
  // Bucket i ends at start + (i - 24) minutes: 8 until the approval at +5, 16
  // until the loop saw the expiry at +31, then 8 again.
  ASSERT_EQ(research->quota_series.size(), 60u);
  EXPECT_FALSE(research->quota_series[23].has_value());
  for (size_t i = 24; i < 60; ++i) {
    ASSERT_TRUE(research->quota_series[i].has_value()) << i;
    EXPECT_EQ(research->quota_series[i]->nominal, i < 29 || i >= 55 ? 8 : 16) << i;
  }
  EXPECT_EQ(stats->to, start + Duration::minutes(35));
}

}  // namespace
}  // namespace allot::testing
