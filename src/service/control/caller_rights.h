// Caller rights: how the control plane's use cases name what they ask
// AccessControl (access_control.h) to authorize, in RBAC's terms.
//
// Contract: pure. Policy kinds are resources of the API group "allot" in
// Kubernetes' plural form (Team -> teams, PriorityClass -> priorityclasses);
// authorize_apply() asks `update` on every object of an apply (creating or
// changing it: kubectl apply's meaning), all before anything changes, but
// the RBAC kinds', which rbac_write_check.h authorizes (create or update,
// and escalation prevention), and PolicyExceptions', which exception_state.h
// authorizes (in their team's namespace, or their owner).
// visible_namespaces() is how lists show each caller only what it may list.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/manifest_parser.h"
#include "base/result.h"
#include "base/status.h"
#include "model/principal.h"
#include "model/views/workload_view.h"
#include "service/control/access_control.h"

namespace allot {

std::string resource_of_kind(std::string_view kind);

// Where a caller may list a namespaced resource: everywhere, or in a set of
// namespaces (none for a caller without bindings, who then sees nothing).
struct VisibleNamespaces {
  bool everywhere = false;
  std::vector<std::string> namespaces;  // sorted

  [[nodiscard]] bool contains(std::string_view namespace_name) const;
};

// What a list of `resource` may show the caller: a list of one namespace
// the caller may not list is kPermissionDenied (the reason says why); a list
// across namespaces shows only those it may list.
Result<VisibleNamespaces> visible_namespaces(const AccessControl& access, const Principal& caller,
                                             std::string_view resource, const WorkloadQuery& query);

// Where the caller may list workloads (never an error): whose workloads it may
// see named (workload_redaction.h).
VisibleNamespaces workload_visibility(const AccessControl& access, const Principal& caller);

Status authorize_apply(const AccessControl& access, const Principal& caller,
                       const ParsedManifests& parsed);

}  // namespace allot
