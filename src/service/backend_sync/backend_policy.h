// backend_policy_of(): allot's policy in the shape that PolicySync carries
// into a backend (backends/policy_sync.h): every cohort under its parent,
// every team under its cohort with its ceiling per governed resource (the
// most the quota tree ever lets it hold: scheduler/team_ceiling.h) and its
// fair-share weight and the priority classes it may use; the priority classes
// (whether each preempts lower ones) and the flavors.
//
// Contract: cohorts and teams in the policy's compiled order (deterministic);
// `users` is left empty (the identity directory fills it). Pure.
#pragma once

#include <string>

#include "backends/policy_sync.h"
#include "scheduler/compiled_policy.h"

namespace allot {

BackendPolicy backend_policy_of(const CompiledPolicy& policy, std::string root);

}  // namespace allot
