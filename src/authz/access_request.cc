#include "authz/access_request.h"

namespace allot {

std::string_view subresource_of(std::string_view resource) {
  const size_t slash = resource.find('/');
  return slash == std::string_view::npos ? std::string_view() : resource.substr(slash + 1);
}

std::string_view name_for_rules(const AccessRequest& request) {
  const std::string_view verb = request.verb;
  if (verb == "list" || verb == "watch" || verb == "deletecollection") return {};
  if (verb == "create" && subresource_of(request.resource).empty()) return {};
  return request.name;
}

}  // namespace allot
