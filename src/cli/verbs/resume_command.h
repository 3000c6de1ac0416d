// `allot resume NAME [-n NS] [--server URL]`: resumes a suspended Space (POST
// /api/v1/namespaces/{ns}/workloads/{name}/resume) and prints
// "workload/<name> resumed".
//
// Contract: NAME with -n, or NS/NAME. allotd requeues the Space at the front
// of its team's queue among its priority (docs/spaces.md); resuming a
// workload that is not suspended is refused (409 failed_precondition, exit 2).
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_resume_command();

}  // namespace allot::cli
