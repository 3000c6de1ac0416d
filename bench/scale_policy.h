// The Policy of the scale test, built in code from model types: kFlavorCount
// flavors with one NodePool each, a 3-level cohort tree of regular teams with
// quota in every flavor, a few urgent teams, and three priority classes.
//
// Quota per regular team and flavor: nominal GPUs = the flavor's GPUs / teams
// (20 at the default size, so that quota equals capacity), 12 CPU cores per
// GPU, no borrowing limit; memory is left ungoverned. Preemption:
// reclaimWithinCohort Any, withinTeam LowerPriority.
//
// Contract: deterministic; the first `config.teams` teams are the regular
// ones (team-<i>), then the urgent ones (urgent-<i>).
#pragma once

#include <memory>
#include <string>

#include "bench/scale_config.h"
#include "model/policy.h"
#include "scheduler/compiled_policy.h"

namespace allot::bench {

inline constexpr const char* kPriorityClassNames[] = {"low", "normal", "high"};
inline constexpr int32_t kPriorityClassValues[] = {100, 500, 1000};

std::string regular_team_name(int32_t i);
std::string urgent_team_name(int32_t i);

Policy make_scale_policy(const ScaleConfig& config);

// Compiles make_scale_policy(config) with its expanded node pools; aborts
// with a message when the policy does not compile (a bench bug).
std::shared_ptr<const CompiledPolicy> compile_scale_policy(const ScaleConfig& config);

}  // namespace allot::bench
