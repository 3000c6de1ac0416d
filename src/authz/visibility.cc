#include "authz/visibility.h"

#include <algorithm>
#include <utility>

#include "authz/resource_catalog.h"

namespace allot {

bool NamespaceVisibility::contains(std::string_view namespace_name) const {
  return all || std::binary_search(namespaces.begin(), namespaces.end(), namespace_name);
}

NamespaceVisibility visible_namespaces(const Authorizer& authorizer, const Caller& caller,
                                       std::string_view verb, std::string_view resource) {
  Authorizer::Reach reach =
      authorizer.reach(caller, {verb, api_group_of(resource), resource, {}, {}});
  if (reach.everywhere) return {true, {}};
  return {false, std::move(reach.namespaces)};
}

NamespaceVisibility visible_namespaces(const Authorizer& authorizer, const Principal& principal,
                                       std::string_view verb, std::string_view resource) {
  return visible_namespaces(authorizer, authorizer.resolve(principal), verb, resource);
}

}  // namespace allot
