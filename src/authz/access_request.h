// AccessRequest: one question to the authorizer, "may the caller VERB this
// RESOURCE (in this NAMESPACE, by this NAME)?", in Kubernetes' terms.
//
// Contract: a view. The strings are borrowed; they must outlive the request
// (it is built and asked within one call). `resource` is a resource or a
// resource and its subresource ("workloads/logs"); an empty namespace means
// the cluster scope (cluster-scoped resources, or every namespace of a
// cluster-wide list); an empty name means the collection. Pure.
#pragma once

#include <string_view>

namespace allot {

struct AccessRequest {
  std::string_view verb;
  std::string_view api_group;
  std::string_view resource;
  std::string_view namespace_name;
  std::string_view name;
};

// The subresource of a request's resource ("logs" of "workloads/logs"), or
// empty.
std::string_view subresource_of(std::string_view resource);

// The name resourceNames are matched against. Verbs on a collection (list,
// watch, deletecollection, and create of the resource itself) have none,
// whatever the caller passed: as in Kubernetes, a rule limited to names
// never allows them, so a caller cannot widen a rule by naming the object it
// is about to create.
std::string_view name_for_rules(const AccessRequest& request);

}  // namespace allot
