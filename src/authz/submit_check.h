// May this caller submit this workload? (issue 11, item 6: authorisation is
// not scheduling.) RBAC decides whether the caller may create workloads in
// the team's namespace; the team's allowedPriorityClasses whether it may use
// the class it asks for. Quota plays no part: a quota never grants access,
// and whether the workload ever runs is the scheduler's business.
//
// Contract: pure. The Decision is the RBAC decision for `create workloads
// NAME in namespace NS` when that denies; otherwise a denial when the
// workload's namespace is not the team's, or when its spec names a
// PriorityClass the team does not allow (an empty allow-list allows every
// class). A spec without a class passes here: the scheduler picks the
// default class and checks it at admission (scheduler/workload_request.h),
// as it checks everything else about the workload. A denied submit must
// never reach the queue.
#pragma once

#include "authz/authorizer.h"
#include "authz/decision.h"
#include "model/principal.h"
#include "model/team.h"
#include "model/workload.h"

namespace allot {

Decision authorize_submit(const Authorizer& authorizer, const Principal& principal,
                          const Workload& workload, const Team& team);

}  // namespace allot
