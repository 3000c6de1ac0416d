// A verb that POSTs an action to one workload and prints its outcome:
// `allot ACTION NAME [-n NS] [--server URL]` posts an empty body to
// /api/v1/namespaces/{ns}/workloads/{name}/{action} and prints
// "workload/<name> <done>" (cancel_command.h, resume_command.h).
//
// Contract: NAME with -n, or NS/NAME; allotd's refusals are reported as
// every verb reports them (exit 2 for a 4xx).
#pragma once

#include <memory>
#include <string>

#include "cli/verbs/command.h"

namespace allot::cli {

// `action`: the path's last segment ("cancel"); `done`: the word printed
// after the name ("cancelled").
std::unique_ptr<Command> make_workload_action_command(std::string action, std::string done);

}  // namespace allot::cli
