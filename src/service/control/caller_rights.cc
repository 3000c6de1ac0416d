#include "service/control/caller_rights.h"

#include <algorithm>
#include <cctype>

#include "api/rbac_documents.h"
#include "authz/resource_catalog.h"

namespace allot {

std::string resource_of_kind(std::string_view kind) {
  std::string resource;
  for (char c : kind) resource += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return resource + (resource.ends_with("s") ? "es" : "s");
}

bool VisibleNamespaces::contains(std::string_view namespace_name) const {
  return everywhere ||
         std::binary_search(namespaces.begin(), namespaces.end(), namespace_name,
                            [](std::string_view a, std::string_view b) { return a < b; });
}

Result<VisibleNamespaces> visible_namespaces(const AccessControl& access, const Principal& caller,
                                             std::string_view resource,
                                             const WorkloadQuery& query) {
  if (!query.namespace_name.empty()) {
    ALLOT_RETURN_IF_ERROR(access.authorize(caller, "list", resource, query.namespace_name));
    return VisibleNamespaces{false, {query.namespace_name}};
  }
  if (caller.admin) return VisibleNamespaces{true, {}};
  const std::shared_ptr<const Authorizer> authorizer = access.authorizer();
  const Authorizer::Reach reach = authorizer->reach(
      authorizer->resolve(caller), AccessRequest{"list", api_group_of(resource), resource, {}, {}});
  return VisibleNamespaces{reach.everywhere, reach.namespaces};
}

VisibleNamespaces workload_visibility(const AccessControl& access, const Principal& caller) {
  Result<VisibleNamespaces> visible = visible_namespaces(access, caller, "workloads", {});
  return visible.ok() ? *std::move(visible) : VisibleNamespaces{};
}

Status authorize_apply(const AccessControl& access, const Principal& caller,
                       const ParsedManifests& parsed) {
  for (const ManifestDocument& document : parsed.documents) {
    // Create or update, and escalation prevention: rbac_write_check.h.
    if (is_rbac_kind(document.kind)) continue;
    // Where its team lives, or by its owner: exception_state.h.
    if (document.kind == "PolicyException") continue;
    ALLOT_RETURN_IF_ERROR(access.authorize(caller, "update", resource_of_kind(document.kind),
                                           document.namespace_name, document.name));
  }
  return {};
}

}  // namespace allot
