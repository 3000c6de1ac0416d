// Kueue import: Kueue's objects (ClusterQueue, Cohort, ResourceFlavor,
// Topology, WorkloadPriorityClass, LocalQueue; kueue.x-k8s.io v1beta1 or
// v1beta2) back into allot's policy, so that a site that runs Kueue can
// simulate its policy in allot before it moves (docs/kubernetes.md).
//
// Contract: import_kueue() reads a multi-document YAML text and returns the
// policy (flavors, cohorts, teams, priority classes, each in the order of the
// text) or an error; never part of it. A ClusterQueue becomes a Team (named
// after it, or after the HyperPod convention with KubernetesNaming::kHyperPod),
// with the namespace of the LocalQueue that points at it (else the one its
// namespaceSelector names, else its own name); a Cohort a Cohort;
// a WorkloadPriorityClass a PriorityClass (the allot.dev/ annotations that
// render_kubernetes() writes are read back). Namespace, ServiceAccount, Role,
// RoleBinding, ResourceQuota and NetworkPolicy documents are skipped (a
// rendered stream imports whole); `status` and metadata other than name,
// namespace, labels and annotations are ignored. Whatever allot cannot
// express is invalid_argument with details naming the document and field,
// "objects.yaml: document 3 (ClusterQueue/team-a): spec.admissionChecksStrategy",
// and a message saying why: admission checks, several resource groups,
// resources other than nvidia.com/gpu, cpu and memory, taints and
// tolerations, withinClusterQueue LowerOrNewerEqualPriority, a stop policy,
// flavor fungibility, two namespaces for one ClusterQueue, unknown fields.
// The result is checked with validate_policy(). Pure; nothing throws.
#pragma once

#include <string_view>

#include "api/kubernetes/kubernetes_render.h"
#include "base/result.h"
#include "model/policy.h"

namespace allot {

Result<Policy> import_kueue(std::string_view yaml_text, std::string_view source_name,
                            KubernetesNaming naming);

}  // namespace allot
