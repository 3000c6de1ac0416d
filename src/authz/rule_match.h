// Rule matching: whether one PolicyRule allows one request, with Kubernetes
// RBAC's semantics.
//
// Contract: pure functions. A resource rule allows a request when its verbs
// hold the verb or "*", its apiGroups the request's group or "*", its
// resources the request's resource ("workloads"; "workloads/logs" for a
// subresource, which "workloads" alone does not cover), "*" (every resource
// and subresource) or "*/<subresource>", and its resourceNames are empty or
// hold name_for_rules(request). A non-resource rule allows a verb on a path
// it lists, or on a path under a prefix it lists as "/prefix/*" ("*" alone is
// every path). Comparisons are exact (case-sensitive), as in Kubernetes.
#pragma once

#include <string_view>

#include "authz/access_request.h"
#include "model/rbac/policy_rule.h"

namespace allot {

bool rule_allows(const PolicyRule& rule, const AccessRequest& request);

bool rule_allows_path(const PolicyRule& rule, std::string_view verb, std::string_view path);

// The pieces, for the covers check (rule_covers.h) and for tests.
bool verb_matches(const PolicyRule& rule, std::string_view verb);
bool api_group_matches(const PolicyRule& rule, std::string_view group);
bool resource_matches(const PolicyRule& rule, std::string_view resource);
bool resource_name_matches(const PolicyRule& rule, std::string_view name);
// Whether the pattern `url` ("/metrics", "/api/*", "*") holds `path`.
bool url_matches(std::string_view url, std::string_view path);

}  // namespace allot
