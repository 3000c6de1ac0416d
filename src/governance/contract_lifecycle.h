// The lifecycle of a connection contract (issue 15, item 3; DESIGN.md
// section 8): Draft -> Approved -> Active -> UnderReview -> Active | Revoked.
//
// Contract: pure (no I/O, no clock: `now` is given). Each transition is made
// by a named person with a reason and appended to the status's history with
// its time; the caller has already checked that person's role (RBAC).
//   approve   Draft -> Approved; the approver is not the requester
//   activate  Approved -> Active; the review clock starts (reviewedAt)
//   review    Active -> UnderReview
//   renew     UnderReview -> Active; the review clock restarts
//   revoke    any phase but Revoked -> Revoked (final)
// A transition from the wrong phase is kFailedPrecondition naming the phase;
// self-approval is kPermissionDenied; an empty person or reason is
// kInvalidArgument ("by", "reason"). The input status is never changed.
#pragma once

#include <optional>
#include <string>

#include "base/result.h"
#include "base/time.h"
#include "model/contract.h"

namespace allot {

// A new contract's status: Draft, requested by `by`.
ContractStatus new_contract_status(const std::string& by, Timestamp now);

Result<ContractStatus> contract_transition(const ContractStatus& status, ContractAction action,
                                           const std::string& by, const std::string& reason,
                                           Timestamp now);

// When the next review falls due (reviewedAt + reviewInterval, or earlier:
// when a review was opened since, by a person or by an event, it fell due
// then), and the end of its grace (+ reviewGracePeriod); none before
// activation.
struct ReviewSchedule {
  Timestamp due;
  Timestamp grace_ends;
};
std::optional<ReviewSchedule> review_schedule(const ContractSpec& spec,
                                              const ContractStatus& status);

// Parses "approve" and the other path segments; nullopt otherwise (create
// is no route: it is an apply).
std::optional<ContractAction> parse_contract_action(std::string_view text);

}  // namespace allot
