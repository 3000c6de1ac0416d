// `allot submit -f FILE [-n NS] [--server URL]`: creates the Workload
// documents of FILE (`-` = standard input), one POST
// /api/v1/namespaces/{ns}/workloads each, and prints
// "workload/<name> created (uid N)" per workload.
//
// Contract: the whole file is checked before anything is sent: every
// document must be a Workload (anything else is an error naming the
// document: "document 2 (Team/research)"; policy goes through `allot apply`)
// and have a namespace, from metadata.namespace or -n (both given must
// agree). Documents are sent as YAML, in file order; the first error stops
// the rest (the ones before it stay created). Exit codes as exit_codes.h.
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_submit_command();

}  // namespace allot::cli
