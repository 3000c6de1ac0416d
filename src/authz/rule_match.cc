#include "authz/rule_match.h"

#include <string>
#include <vector>

namespace allot {
namespace {

constexpr std::string_view kAll = "*";

bool holds(const std::vector<std::string>& items, std::string_view item) {
  for (const std::string& candidate : items) {
    if (candidate == item) return true;
  }
  return false;
}

}  // namespace

bool verb_matches(const PolicyRule& rule, std::string_view verb) {
  for (const std::string& candidate : rule.verbs) {
    if (candidate == kAll || candidate == verb) return true;
  }
  return false;
}

bool api_group_matches(const PolicyRule& rule, std::string_view group) {
  for (const std::string& candidate : rule.api_groups) {
    if (candidate == kAll || candidate == group) return true;
  }
  return false;
}

bool resource_matches(const PolicyRule& rule, std::string_view resource) {
  const size_t slash = resource.find('/');
  for (const std::string& candidate : rule.resources) {
    if (candidate == kAll || candidate == resource) return true;
    // "*/logs" holds the subresource "logs" of every resource.
    if (slash != std::string_view::npos && candidate.size() == resource.size() - slash + 1 &&
        candidate[0] == '*' && std::string_view(candidate).substr(1) == resource.substr(slash)) {
      return true;
    }
  }
  return false;
}

bool resource_name_matches(const PolicyRule& rule, std::string_view name) {
  return rule.resource_names.empty() || (!name.empty() && holds(rule.resource_names, name));
}

bool rule_allows(const PolicyRule& rule, const AccessRequest& request) {
  return verb_matches(rule, request.verb) && api_group_matches(rule, request.api_group) &&
         resource_matches(rule, request.resource) &&
         resource_name_matches(rule, name_for_rules(request));
}

bool url_matches(std::string_view url, std::string_view path) {
  if (url == kAll || url == path) return true;
  return url.size() > 1 && url.back() == '*' && path.starts_with(url.substr(0, url.size() - 1));
}

bool rule_allows_path(const PolicyRule& rule, std::string_view verb, std::string_view path) {
  if (!verb_matches(rule, verb)) return false;
  for (const std::string& url : rule.non_resource_urls) {
    if (url_matches(url, path)) return true;
  }
  return false;
}

}  // namespace allot
