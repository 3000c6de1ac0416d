// What allotd keeps of its PolicyExceptions beside their specs (issue 15,
// item 6): each exception's status (phase, requestedBy, decidedBy, history),
// stored as a PolicyExceptionStatus object of the exception's name, who may
// apply an exception, and the changes an apply or a delete makes to the
// statuses.
//
// Contract: pure functions of values (and of the access control's answers),
// under the callers' locks.
// - Who applies a PolicyException: allotd's administrator identity; its
//   named owner (by name or group); or a caller RBAC lets `update`
//   policyexceptions at cluster scope or in the namespace of the team it
//   relaxes (built-in team-admin). Anyone else is kPermissionDenied.
// - An apply by the exception's approver (or the administrator identity,
//   which records approvals made elsewhere) is Approved at once; by anyone
//   else it is Requested, and a spec change of an Approved exception by
//   anyone but its approver puts it back to Requested
//   (governance/exception_lifecycle.h). A Rejected exception's spec does not
//   change (kFailedPrecondition).
// - Only Approved exceptions are in force: withheld_exceptions() names the
//   others (an exception with no stored status predates the lifecycle and
//   was applied by its approver: in force).
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/status.h"
#include "base/time.h"
#include "model/policy.h"
#include "model/principal.h"
#include "model/views/policy_view.h"
#include "service/control/access_control.h"
#include "service/control/policy_state.h"
#include "store/store.h"

namespace allot {

inline constexpr std::string_view kExceptionStatusKind = "PolicyExceptionStatus";

using ExceptionStatuses = std::map<std::string, ExceptionStatus>;  // by exception name

struct ExceptionStatusChanges {
  ExceptionStatuses put;
  std::vector<std::string> erase;
};

// allotd's own administrator identity (the admin token, system:admins).
bool is_exception_administrator(const Principal& caller);

// Whether `caller` is `who` (a user name) or in the group `who`.
bool is_exception_party(const Principal& caller, const std::string& who);

// Refuses the apply of an exception of `applied` by a caller who may not
// (see above); the team's namespace is found in `applied`, else in
// `current`.
Status check_exception_appliers(const AccessControl& access, const Principal& caller,
                                const Policy& applied, const Policy& current);

// The statuses of the exceptions `changes` creates or configures, applied
// by `caller`.
Result<ExceptionStatusChanges> exception_status_changes(const ExceptionStatuses& statuses,
                                                        const Policy& next,
                                                        const std::vector<PolicyChange>& changes,
                                                        const Principal& caller, Timestamp now);

// An exception's status as shown: the stored one, or Approved (applied
// before the lifecycle existed) with no history.
ExceptionStatus exception_standing(const ExceptionStatuses& statuses, const std::string& name);

// The standing as shown at `now`: a request whose expiry has passed is
// Expired (exception_status_at(); `policy` holds the exception's spec).
ExceptionStatus exception_standing_at(const ExceptionStatuses& statuses, const Policy& policy,
                                      const std::string& name, Timestamp now);

std::set<std::string> withheld_exceptions(const ExceptionStatuses& statuses);

// `policy` with only the exceptions `statuses` approve applied at `now`
// (as it is when that cannot be compiled: the next cycle tries again).
PolicyState policy_under_exception_statuses(PolicyState policy, const ExceptionStatuses& statuses,
                                            Timestamp now);

void put_exception_statuses(const ExceptionStatusChanges& changes, WriteBatch& batch);
void install_exception_statuses(const ExceptionStatusChanges& changes, ExceptionStatuses& statuses);

}  // namespace allot
