// `allot cancel NAME [-n NS] [--server URL]`: cancels a workload (POST
// /api/v1/namespaces/{ns}/workloads/{name}/cancel) and prints
// "workload/<name> cancelled".
//
// Contract: NAME with -n, or NS/NAME. Running pods are stopped by allotd with
// the priority class's grace period. Cancelling a finished workload is
// refused by allotd (409 failed_precondition, exit 2).
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_cancel_command();

}  // namespace allot::cli
