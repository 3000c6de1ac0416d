// `allot describe KIND NAME [-n NS] [--server URL]`: one object in words.
//
// Contract: workloads (NAME with -n, or NS/NAME) show their spec, status,
// pod placement, the scheduler's explanation and estimated start while
// waiting, and their events (GET .../events; output/workload_description.h);
// teams their quota and usage (output/policy_description.h); nodes the node; other
// kinds their spec as YAML. Errors print "error: ..." and exit 2 (bad kind,
// unknown object) or 1 (allotd unreachable).
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_describe_command();

}  // namespace allot::cli
