// PolicyException (issue 15, item 6): a named, owned, approved and expiring
// relaxation of the policy for one team: more quota of a flavor, a priority
// class its allowedPriorityClasses lack, a workload kind its contracts do not
// approve, or a data classification above its contract cluster's maximum.
//
// Contract: plain values. `expires` is absolute: the exception applies while
// now < expires (governance/policy_exceptions.h applies it). One exception
// relaxes one thing (`target`); the fields of the other targets stay empty.
// validate_policy() checks the references (team, flavor, priority class,
// classification level) and that the approver is not the owner.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/quantity.h"
#include "base/time.h"
#include "model/object_meta.h"
#include "model/workload.h"

namespace allot {

enum class ExceptionTarget : uint8_t { kQuota, kPriorityClass, kWorkloadKind, kDataClassification };

// Added to the team's nominal quota of `flavor` (base units per Resource).
struct QuotaRelaxation {
  std::string flavor;
  std::array<int64_t, kResourceCount> amounts{};

  friend bool operator==(const QuotaRelaxation&, const QuotaRelaxation&) = default;
};

struct PolicyExceptionSpec {
  std::string team;
  ExceptionTarget target = ExceptionTarget::kQuota;
  QuotaRelaxation quota;                            // kQuota
  std::string priority_class;                       // kPriorityClass
  WorkloadKind workload_kind = WorkloadKind::kJob;  // kWorkloadKind
  std::string data_classification;                  // kDataClassification: the level allowed
  std::string owner;     // who answers for it (a directory user or group)
  std::string reason;    // why
  std::string approver;  // who approved it; never the owner
  Timestamp expires;

  friend bool operator==(const PolicyExceptionSpec&, const PolicyExceptionSpec&) = default;
};

struct PolicyException {
  ObjectMeta meta;
  PolicyExceptionSpec spec;

  friend bool operator==(const PolicyException&, const PolicyException&) = default;
};

// The request-and-approve lifecycle (governance/exception_lifecycle.h),
// kept apart from the spec (kind PolicyExceptionStatus): Requested (not in
// force), Approved (in force until expires), Rejected (final). Expired is
// never stored: it is how a Requested or Approved exception whose expiry has
// passed is shown (exception_status_at(), governance/exception_lifecycle.h);
// it never applies, and an expired request can no longer be decided.
enum class ExceptionPhase : uint8_t { kRequested, kApproved, kRejected, kExpired };
enum class ExceptionAction : uint8_t { kRequest, kApprove, kReject };

struct ExceptionTransition {
  ExceptionAction action = ExceptionAction::kRequest;
  ExceptionPhase from = ExceptionPhase::kRequested;
  ExceptionPhase to = ExceptionPhase::kRequested;
  std::string by;
  Timestamp at;
  std::string reason;

  friend bool operator==(const ExceptionTransition&, const ExceptionTransition&) = default;
};

struct ExceptionStatus {
  ExceptionPhase phase = ExceptionPhase::kRequested;
  std::string requested_by;  // who applied the spec in force
  std::string decided_by;    // who approved or rejected it; empty while Requested
  std::vector<ExceptionTransition> history;

  friend bool operator==(const ExceptionStatus&, const ExceptionStatus&) = default;
};

// "Requested", "Approved", "Rejected", "Expired"; "request", "approve", "reject".
std::string_view exception_phase_name(ExceptionPhase phase);
std::string_view exception_action_name(ExceptionAction action);

// "quota", "priorityClass", "workloadKind", "dataClassification": the
// manifest's key under spec.relaxes.
std::string_view exception_target_name(ExceptionTarget target);

}  // namespace allot
