// Kubernetes rendering: allot's policy as the objects that a Kubernetes (EKS)
// cluster with Kueue v0.19 enforces (DESIGN.md section 5, docs/kubernetes.md).
//
// Contract: render_kubernetes() is a pure function of (policy, rbac,
// options): the same input gives the same objects, byte for byte, sorted by
// (namespace, kind, name) with the cluster-scoped objects first. Per team: a
// Namespace (labels allot.dev/team and allot.dev/cohort, owners as
// annotations), a ServiceAccount, the Roles allot-view and allot-act and one
// RoleBinding each for the directory groups and users of allot's bindings
// (names prefixed with options.subject_prefix), a ResourceQuota no tighter
// than nominal plus what the team may borrow, a default-deny NetworkPolicy
// (egress to DNS, to its own namespace and to its network.egressNamespaces;
// ingress from its own namespace and from the teams whose egressNamespaces
// name it), a LocalQueue and a
// ClusterQueue; per cohort a Cohort, per flavor a ResourceFlavor, per
// priority class a WorkloadPriorityClass, per distinct topology a Topology.
// The mapping report lists, in a stable order, every allot setting that
// Kubernetes and Kueue cannot express: what is lost and what is rendered
// instead. REQUIRES: validate_policy(policy) is ok. Nothing throws.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/policy.h"
#include "model/rbac/rbac_policy.h"

namespace allot {

enum class KueueApiVersion { kV1beta1, kV1beta2 };
// plain: allot's names; hyperpod: SageMaker HyperPod task governance's
// (namespace hyperpod-ns-<team>, queues hyperpod-ns-<team>-localqueue and
// -clusterqueue, priority classes <name>-priority).
enum class KubernetesNaming { kPlain, kHyperPod };

struct KubernetesRenderOptions {
  KueueApiVersion kueue_api = KueueApiVersion::kV1beta2;
  KubernetesNaming naming = KubernetesNaming::kPlain;
  // Prefixed to allot's directory groups and users in RoleBindings: EKS maps
  // an OIDC identity provider's groups claim with a prefix (docs/kubernetes.md).
  std::string subject_prefix = "oidc:";
};

struct KubernetesObject {
  std::string api_version;
  std::string kind;
  std::string namespace_name;  // empty: cluster-scoped
  std::string name;
  nlohmann::json manifest;  // the whole document (apiVersion, kind, metadata, ...)
};

// One allot setting that Kubernetes cannot express.
struct MappingNote {
  std::string setting;   // "PriorityClass/batch: minRuntimeSeconds"
  std::string lost;      // what Kubernetes/Kueue does differently
  std::string rendered;  // what allot renders instead ("nothing", an annotation)

  friend bool operator==(const MappingNote&, const MappingNote&) = default;
};

struct KubernetesRendering {
  std::vector<KubernetesObject> objects;
  std::vector<MappingNote> notes;
};

KubernetesRendering render_kubernetes(const Policy& policy, const RbacPolicy& rbac,
                                      const KubernetesRenderOptions& options);

// "kueue.x-k8s.io/v1beta2" or "kueue.x-k8s.io/v1beta1".
std::string kueue_api_version(KueueApiVersion version);

// The mapping report as text, one note per paragraph, each line starting
// with `comment` ("# " for the head of a YAML stream, "" for a file).
std::string format_mapping_report(const std::vector<MappingNote>& notes, std::string_view comment);

}  // namespace allot
