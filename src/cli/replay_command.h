// `allot replay`: runs a what-if scenario through a real allotd in real time
// (DESIGN.md section 5: the same scheduler as the simulator, real pods), and
// compares what it measured with the simulation of the same scenario.
//
// Contract: applies the scenario's policy documents, submits each arrival at
// its time as a sleep-mode workload (its pods only wait for their runtime),
// samples GET /api/v1/top every --sample-interval, waits until every workload
// finished, then prints wall time, lowest team usage, preemptions and mean
// time to admission per priority class for allotd and for the simulation,
// side by side (a table, or JSON with -o json). Needs a fresh allotd (names
// must not exist yet).
#pragma once

#include <memory>

#include "cli/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_replay_command();

}  // namespace allot::cli
