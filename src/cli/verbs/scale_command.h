// `allot scale NAME --replicas N [-n NS] [--server URL]`: sets an
// InferenceEndpoint's desired replica count (POST
// /api/v1/namespaces/{ns}/workloads/{name}/scale {"replicas": N}) and prints
// "workload/<name> scaled to N replicas". `--signal V` reports a reading for
// an endpoint that scales on queueDepth or cpu instead ({"signal": V}); it
// prints the desired count allotd derived from it.
//
// Contract: NAME with -n, or NS/NAME; exactly one of --replicas and --signal.
// allotd refuses a workload that is not an endpoint (409), a count outside
// [min, max] or the wrong input for the endpoint's scaleOn (400, exit 2).
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_scale_command();

}  // namespace allot::cli
