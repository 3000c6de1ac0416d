// PlanSummary: what a plan decided, counted: admissions, preemptions,
// reservations, and the pending workloads by reason and preemption verdict.
// The scale test prints it so that a slow pass can be traced to the path it
// took (e.g. thousands of NoFittingNodes explanations each trying a reservation).
// `digest` hashes every decision of the plan, in order, so that two builds can
// be checked to plan identically (an optimisation must not change a plan).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "scheduler/plan.h"

namespace allot::bench {

struct PlanSummary {
  int64_t admissions = 0;
  int64_t preemptions = 0;
  int64_t reservations = 0;
  std::map<std::string, int64_t> pending_reasons;      // by pending_reason_name()
  std::map<std::string, int64_t> preemption_verdicts;  // by preemption_verdict_name()
  uint64_t digest = 0;
};

PlanSummary summarize(const Plan& plan);
// FNV-1a over every field of every decision, starting from `seed`.
uint64_t plan_digest(const Plan& plan, uint64_t seed = 14695981039346656037ULL);

}  // namespace allot::bench
