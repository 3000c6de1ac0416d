// `allot import kubernetes -f OBJECTS.yaml [--flavor plain|hyperpod]`:
// Kueue's objects (ClusterQueue, Cohort, ResourceFlavor, Topology,
// WorkloadPriorityClass, LocalQueue) as allot/v1 manifests on stdout
// (api/kubernetes/kueue_import.h), ready for `allot apply` or `allot
// simulate`. What allot cannot express is an error naming the document and
// field (exit 2). Runs locally.
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_import_command();

}  // namespace allot::cli
