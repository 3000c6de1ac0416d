// The pure request-and-approve lifecycle of PolicyExceptions (issue 15,
// item 6): applied by its approver (Approved at once) or by anyone else
// (Requested), approve and reject by whom and from where, a spec change
// re-opening an approved request, a rejection being final, and only
// approved exceptions relaxing the policy.
#include "governance/exception_lifecycle.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "governance/policy_exceptions.h"

namespace allot {
namespace {

const Timestamp kLifecycleT0 = Timestamp::from_millis(1'800'000'000'000);

PolicyExceptionSpec lifecycle_spec() {
  PolicyExceptionSpec spec;
  spec.team = "vision";
  spec.owner = "ana";
  spec.approver = "bob";
  spec.reason = "deadline";
  spec.expires = kLifecycleT0 + Duration::hours(10);
  return spec;
}

TEST(ExceptionLifecycle, AppliedByItsApproverIsApprovedAtOnce) {
  const Result<ExceptionStatus> status =
      exception_applied(std::nullopt, "bob", /*by_approver=*/true, kLifecycleT0);
  ASSERT_TRUE(status.ok()) << status.status().to_string();
  EXPECT_EQ(status->phase, ExceptionPhase::kApproved);
  EXPECT_EQ(status->requested_by, "bob");
  EXPECT_EQ(status->decided_by, "bob");
  ASSERT_EQ(status->history.size(), 2u);
  EXPECT_EQ(status->history[1].action, ExceptionAction::kApprove);
  EXPECT_EQ(status->history[1].at, kLifecycleT0);
  EXPECT_TRUE(exception_approved(*status));
}

TEST(ExceptionLifecycle, ARequestWaitsForItsApprover) {
  const PolicyExceptionSpec spec = lifecycle_spec();
  const Result<ExceptionStatus> requested =
      exception_applied(std::nullopt, "carol", false, kLifecycleT0);
  ASSERT_TRUE(requested.ok());
  EXPECT_EQ(requested->phase, ExceptionPhase::kRequested);
  EXPECT_EQ(requested->requested_by, "carol");
  EXPECT_TRUE(requested->decided_by.empty());
  EXPECT_FALSE(exception_approved(*requested));

  // Neither the requester nor the owner decides it.
  for (const char* who : {"carol", "ana"}) {
    const Result<ExceptionStatus> self =
        exception_decision(*requested, spec, ExceptionAction::kApprove, who, "fine", kLifecycleT0);
    EXPECT_EQ(self.status().code(), ErrorCode::kPermissionDenied) << who;
  }
  const Result<ExceptionStatus> no_reason =
      exception_decision(*requested, spec, ExceptionAction::kApprove, "bob", " ", kLifecycleT0);
  EXPECT_EQ(no_reason.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(no_reason.status().details(), "reason");

  const Timestamp later = kLifecycleT0 + Duration::minutes(5);
  const Result<ExceptionStatus> approved =
      exception_decision(*requested, spec, ExceptionAction::kApprove, "bob", "agreed", later);
  ASSERT_TRUE(approved.ok()) << approved.status().to_string();
  EXPECT_EQ(approved->phase, ExceptionPhase::kApproved);
  EXPECT_EQ(approved->decided_by, "bob");
  EXPECT_EQ(approved->history.back().reason, "agreed");
  EXPECT_EQ(approved->history.back().at, later);
  EXPECT_EQ(approved->history.back().from, ExceptionPhase::kRequested);
  EXPECT_EQ(requested->phase, ExceptionPhase::kRequested) << "the input is unchanged";

  // Approved: no second decision.
  const Result<ExceptionStatus> again =
      exception_decision(*approved, spec, ExceptionAction::kReject, "bob", "no", later);
  EXPECT_EQ(again.status().code(), ErrorCode::kFailedPrecondition);
}

TEST(ExceptionLifecycle, ARejectionIsFinal) {
  const PolicyExceptionSpec spec = lifecycle_spec();
  const Result<ExceptionStatus> requested =
      exception_applied(std::nullopt, "carol", false, kLifecycleT0);
  ASSERT_TRUE(requested.ok());
  const Result<ExceptionStatus> rejected = exception_decision(
      *requested, spec, ExceptionAction::kReject, "bob", "too much", kLifecycleT0);
  ASSERT_TRUE(rejected.ok());
  EXPECT_EQ(rejected->phase, ExceptionPhase::kRejected);
  EXPECT_FALSE(exception_approved(*rejected));
  EXPECT_EQ(
      exception_decision(*rejected, spec, ExceptionAction::kApprove, "bob", "ok", kLifecycleT0)
          .status()
          .code(),
      ErrorCode::kFailedPrecondition);
  EXPECT_EQ(exception_applied(*rejected, "carol", false, kLifecycleT0).status().code(),
            ErrorCode::kFailedPrecondition);
  EXPECT_EQ(exception_applied(*rejected, "bob", true, kLifecycleT0).status().code(),
            ErrorCode::kFailedPrecondition);
}

TEST(ExceptionLifecycle, ASpecChangeByAnyoneButTheApproverReopensTheRequest) {
  const Result<ExceptionStatus> approved =
      exception_applied(std::nullopt, "bob", true, kLifecycleT0);
  ASSERT_TRUE(approved.ok());
  const Result<ExceptionStatus> changed =
      exception_applied(*approved, "carol", false, kLifecycleT0 + Duration::hours(1));
  ASSERT_TRUE(changed.ok());
  EXPECT_EQ(changed->phase, ExceptionPhase::kRequested);
  EXPECT_EQ(changed->requested_by, "carol");
  EXPECT_TRUE(changed->decided_by.empty());
  EXPECT_EQ(changed->history.back().from, ExceptionPhase::kApproved);
  EXPECT_EQ(changed->history.back().reason, "spec changed");
  const Result<ExceptionStatus> by_approver =
      exception_applied(*changed, "bob", true, kLifecycleT0 + Duration::hours(2));
  ASSERT_TRUE(by_approver.ok());
  EXPECT_EQ(by_approver->phase, ExceptionPhase::kApproved);
}

TEST(ExceptionLifecycle, ARequestPastItsExpiryIsExpiredAndCannotBeDecided) {
  const PolicyExceptionSpec spec = lifecycle_spec();  // expires at T0 + 10h
  const Result<ExceptionStatus> requested =
      exception_applied(std::nullopt, "carol", false, kLifecycleT0);
  ASSERT_TRUE(requested.ok());
  const Timestamp before = spec.expires - Duration::millis(1);
  EXPECT_EQ(exception_status_at(*requested, spec, before).phase, ExceptionPhase::kRequested);
  EXPECT_FALSE(exception_request_expired(*requested, spec, before));
  // At its expiry (now >= expires) and after: Expired, never in force.
  for (const Timestamp at : {spec.expires, spec.expires + Duration::hours(1)}) {
    const ExceptionStatus shown = exception_status_at(*requested, spec, at);
    EXPECT_EQ(shown.phase, ExceptionPhase::kExpired);
    EXPECT_EQ(exception_phase_name(shown.phase), "Expired");
    EXPECT_EQ(shown.history, requested->history) << "only the phase shown changes";
    EXPECT_FALSE(exception_approved(shown));
    EXPECT_TRUE(exception_request_expired(*requested, spec, at));
    for (const ExceptionAction action : {ExceptionAction::kApprove, ExceptionAction::kReject}) {
      const Result<ExceptionStatus> late =
          exception_decision(*requested, spec, action, "bob", "late but fine", at);
      EXPECT_EQ(late.status().code(), ErrorCode::kFailedPrecondition);
      EXPECT_NE(late.status().message().find("the exception is Expired: its expiry passed while "
                                             "it was Requested"),
                std::string::npos)
          << late.status().to_string();
      EXPECT_EQ(late.status().details(), "spec.expires");
      // The shown (Expired) status is refused the same way.
      EXPECT_EQ(exception_decision(shown, spec, action, "bob", "late", at).status().code(),
                ErrorCode::kFailedPrecondition);
    }
  }
  // The requester and the owner are still refused as such (who comes first).
  EXPECT_EQ(
      exception_decision(*requested, spec, ExceptionAction::kApprove, "carol", "x", spec.expires)
          .status()
          .code(),
      ErrorCode::kPermissionDenied);
  // An approved exception is shown Expired from its expiry on too (it stops
  // applying by its expiry: policy_exceptions.h), as stored before it; the
  // stored status keeps Approved. A rejected one stays Rejected.
  const Result<ExceptionStatus> approved =
      exception_decision(*requested, spec, ExceptionAction::kApprove, "bob", "ok", before);
  ASSERT_TRUE(approved.ok()) << approved.status().to_string();
  EXPECT_EQ(exception_status_at(*approved, spec, before).phase, ExceptionPhase::kApproved);
  EXPECT_FALSE(exception_expired(*approved, spec, before));
  for (const Timestamp at : {spec.expires, spec.expires + Duration::hours(1)}) {
    const ExceptionStatus shown = exception_status_at(*approved, spec, at);
    EXPECT_EQ(shown.phase, ExceptionPhase::kExpired);
    EXPECT_EQ(shown.history, approved->history) << "only the phase shown changes";
    EXPECT_EQ(shown.decided_by, "bob");
    EXPECT_TRUE(exception_expired(*approved, spec, at));
    EXPECT_FALSE(exception_request_expired(*approved, spec, at)) << "no request left undecided";
  }
  EXPECT_EQ(approved->phase, ExceptionPhase::kApproved);
  const Result<ExceptionStatus> rejected =
      exception_decision(*requested, spec, ExceptionAction::kReject, "bob", "no", before);
  ASSERT_TRUE(rejected.ok());
  EXPECT_EQ(exception_status_at(*rejected, spec, spec.expires).phase, ExceptionPhase::kRejected);
  EXPECT_FALSE(exception_expired(*rejected, spec, spec.expires));

  // Applied again with a later expiry: Requested, and approvable.
  PolicyExceptionSpec renewed = spec;
  renewed.expires = spec.expires + Duration::hours(24);
  const Timestamp now = spec.expires + Duration::hours(1);
  const Result<ExceptionStatus> reopened = exception_applied(*requested, "carol", false, now);
  ASSERT_TRUE(reopened.ok());
  EXPECT_EQ(exception_status_at(*reopened, renewed, now).phase, ExceptionPhase::kRequested);
  EXPECT_TRUE(
      exception_decision(*reopened, renewed, ExceptionAction::kApprove, "bob", "ok", now).ok());
}

TEST(ExceptionLifecycle, NoStoredStatusIsApprovedAndActionsParse) {
  EXPECT_TRUE(exception_approved(std::nullopt));
  EXPECT_EQ(parse_exception_action("approve"), ExceptionAction::kApprove);
  EXPECT_EQ(parse_exception_action("reject"), ExceptionAction::kReject);
  EXPECT_EQ(parse_exception_action("request"), std::nullopt);
}

TEST(ExceptionLifecycle, AWithheldExceptionRelaxesNothing) {
  Policy policy;
  Team team;
  team.meta.name = "vision";
  team.allowed_priority_classes = {"low"};
  policy.teams.push_back(team);
  PolicyException exception;
  exception.meta.name = "urgent";
  exception.spec = lifecycle_spec();
  exception.spec.target = ExceptionTarget::kPriorityClass;
  exception.spec.priority_class = "urgent";
  policy.exceptions.push_back(exception);

  const std::set<std::string> withheld = {"urgent"};
  EXPECT_TRUE(active_exception_names(policy, kLifecycleT0, withheld).empty());
  EXPECT_EQ(
      policy_with_exceptions(policy, kLifecycleT0, withheld).teams[0].allowed_priority_classes,
      std::vector<std::string>{"low"});
  EXPECT_EQ(active_exception_names(policy, kLifecycleT0), std::vector<std::string>{"urgent"});
  EXPECT_EQ(policy_with_exceptions(policy, kLifecycleT0).teams[0].allowed_priority_classes,
            (std::vector<std::string>{"low", "urgent"}));
}

}  // namespace
}  // namespace allot
