// `allot get KIND [NAME] [-n NS | -A] [-o wide|json|yaml] [--phase P]
// [--team T] [--limit N] [--sort-by KEY] [--serviceaccount SA] [--server URL]`: lists or shows
// objects of allotd.
//
// Contract: KIND is any form api/resource_kinds.h accepts. Workloads, roles
// and rolebindings are listed across every namespace the caller may list
// unless -n is given (-A says so explicitly); workloads with
// --phase (comma-separated), --team, --limit and --sort-by (the server's
// `sort`) sent as query parameters and `continue` tokens followed until the
// list is complete or --limit items came (client/workload_listing.h); these
// four are for workloads only. A single workload, role or rolebinding is NAME with -n, or
// NS/NAME. Without -o
// the objects are a table (output/object_tables.h; AGE at the time of the call);
// -o wide adds columns; -o json/yaml print the object, or {"items": [...]}
// for a list. An empty list prints "No KIND found." on stderr and exits 0.
// Service accounts (`get serviceaccounts`, `sa`) and their tokens (`get
// tokens --serviceaccount NAME -n NS`): service_account_verbs.h.
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_get_command();

}  // namespace allot::cli
