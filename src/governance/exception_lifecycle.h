// The request-and-approve lifecycle of a PolicyException (issue 15, item 6):
// Requested -> Approved | Rejected. Only an Approved exception is in force
// (until its expiry: policy_exceptions.h); Rejected is final.
//
// Contract: pure (no I/O, no clock: `now` is given). Each step is made by a
// named person and appended to the status's history with its time; the
// caller has already decided who may act (service/control/exception_state.h).
//   applied      an apply of the spec: by its approver, Approved at once
//                (a request approved by the person who approves it); by
//                anyone else, Requested (an Approved exception whose spec
//                changes goes back to Requested). A Rejected exception's
//                spec does not change (kFailedPrecondition: delete it and
//                apply a new one).
//   approve      Requested -> Approved
//   reject       Requested -> Rejected
//   expiry       a Requested or Approved exception whose expiry has passed
//                (now >= spec.expires) is Expired: exception_status_at()
//                shows it so, the one rule every surface uses (the API's
//                status.phase, `allot get exceptions`, the evidence export;
//                the stored phase stays as it was; Expired is never
//                stored). It is not in force (policy_exceptions.h). A
//                decision on an expired request is kFailedPrecondition
//                naming the expiry (an apply with a later expiry makes it
//                Requested again); a Rejected one stays Rejected.
// An approval or rejection by the exception's owner or by whoever
// requested it is kPermissionDenied; from the wrong phase
// kFailedPrecondition; an empty person or reason kInvalidArgument ("by",
// "reason"). The input status is never changed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/time.h"
#include "model/policy_exception.h"

namespace allot {

// The status after `by` applies the spec (`before`: none for a new exception).
Result<ExceptionStatus> exception_applied(const std::optional<ExceptionStatus>& before,
                                          const std::string& by, bool by_approver, Timestamp now);

// approve or reject (kRequest is no decision: kInvalidArgument).
Result<ExceptionStatus> exception_decision(const ExceptionStatus& status,
                                           const PolicyExceptionSpec& spec, ExceptionAction action,
                                           const std::string& by, const std::string& reason,
                                           Timestamp now);

// Whether `status` is a request that expired undecided at `now`.
bool exception_request_expired(const ExceptionStatus& status, const PolicyExceptionSpec& spec,
                               Timestamp now);

// Whether `status` is Expired at `now`: Requested or Approved (or shown
// Expired already) with its expiry passed.
bool exception_expired(const ExceptionStatus& status, const PolicyExceptionSpec& spec,
                       Timestamp now);

// `status` as shown at `now`: Expired when exception_expired(), as stored
// otherwise.
ExceptionStatus exception_status_at(ExceptionStatus status, const PolicyExceptionSpec& spec,
                                    Timestamp now);

// Whether an exception of this status is in force (Approved; none stored:
// applied before the lifecycle existed, by its approver).
bool exception_approved(const std::optional<ExceptionStatus>& status);

// Parses "approve" and "reject"; nullopt otherwise.
std::optional<ExceptionAction> parse_exception_action(std::string_view text);

}  // namespace allot
