// `allot export kubernetes [-f POLICY...] [--server URL] [--out DIR]
// [--kueue-api v1beta1|v1beta2] [--flavor plain|hyperpod]`: allot's policy
// rendered as the Namespaces, RBAC, ResourceQuotas, NetworkPolicies and Kueue
// objects of a Kubernetes cluster (api/kubernetes/kubernetes_render.h,
// docs/kubernetes.md). `allot export kubernetes workload NAME -f FILE
// --image IMAGE [-n NS]`: one Workload of the files as a Job or PyTorchJob.
//
// Contract: the policy comes from the -f files, or from allotd without them
// (kubernetes_policy_source.h). Without --out: one YAML stream on stdout, the
// mapping report first as `#` comments. With --out DIR: one file per object,
// NNN-<kind>[-<namespace>]-<name>.yaml in apply order, and MAPPING.md (the
// report); DIR is created. Output is deterministic. Exit codes: exit_codes.h.
#pragma once

#include <memory>

#include "cli/verbs/command.h"

namespace allot::cli {

std::unique_ptr<Command> make_export_command();

}  // namespace allot::cli
