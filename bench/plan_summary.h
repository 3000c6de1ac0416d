// PlanSummary: what a plan decided, counted: admissions, preemptions,
// reservations, and the pending workloads by reason and preemption verdict.
// The scale test prints it so that a slow pass can be traced to the path it
// took (e.g. thousands of NoFittingNodes explanations each trying a reservation).
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
};

PlanSummary summarize(const Plan& plan);

}  // namespace allot::bench
