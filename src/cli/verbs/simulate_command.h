// `allot simulate --scenario FILE [-o json|table] [--workloads CSV]`: runs a
// what-if simulation of the policy and Scenario in FILE on virtual time and
// prints what it measured (output/simulation_output.h).
// `allot simulate --trace FILE --format philly|csv --policy P.yaml [--policy
// Q.yaml ...] [--from T] [--to T] [--cycle 10s] [--team-prefix vc-] [-o json]`
// replays a job trace through each policy and prints them side by side
// (trace_study.h, output/trace_output.h). Exactly one of --scenario and --trace.
//
// Contract: local only (no server). Errors: a missing or malformed file, an
// invalid policy, a file without a Scenario document or a workload the policy
// rejects print "error: <status>" and exit 2; a simulation that does not
// settle or an unwritable CSV exit 1. `runtime_s` in the output is the real
// time the simulation took.
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_simulate_command();

}  // namespace allot::cli
