// Policy installation: what a new policy means for the state in memory, and
// how a workload is checked against a policy before it enters the state.
//
// Contract: pure functions of their arguments (no I/O, no clock, no locks;
// the caller holds the state exclusively).
// - install_policy() replaces the policy, drops the reservations it no longer
//   backs, rebuilds the scheduler and recompiles every unfinished workload's
//   request (or says why the policy cannot run it), unless the new policy
//   gives every workload the same request as the old one
//   (keeps_every_request(): same_workload_requests(), scheduler/workload_request.h).
//   A policy with the same compiled form (an RBAC change only) replaces the
//   documents and nothing else.
// - compile_request() makes one workload's scheduler request under `policy`.
// - new_workload() checks a submitted workload against `policy` and returns it
//   as it enters: Pending, team resolved, request compiled, `submitted_by`
//   (the caller's subject) recorded; a workload the policy cannot take is
//   kInvalidArgument naming the field.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"
#include "base/time.h"
#include "model/workload.h"
#include "service/control/live_workload.h"
#include "service/control/policy_state.h"
#include "service/control/server_state.h"

namespace allot {

void install_policy(ServerState& state, PolicyState policy);

// True when both policies are compiled and give every workload the same
// request (or the same reason it has none): same_workload_requests().
bool keeps_every_request(const PolicyState& before, const PolicyState& after);

void compile_request(const PolicyState& policy, LiveWorkload& live);

Result<LiveWorkload> new_workload(const PolicyState& policy, const Workload& workload,
                                  WorkloadId id, Timestamp now, std::string submitted_by);

}  // namespace allot
