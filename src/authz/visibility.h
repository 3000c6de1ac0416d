// Visibility (issue 11, item 5): the namespaces whose objects a caller may
// see, so that lists, `top`, events and the scheduler's explanations show
// other teams only as aggregates.
//
// Contract: pure, over a compiled Authorizer. visible_namespaces() answers
// where the caller may `verb` (default list) `resource` (default workloads):
// everywhere (a ClusterRoleBinding allows it) or a sorted set of namespaces
// (its RoleBindings; a scoped session: its namespace at most). A caller with
// no bindings sees nothing. Names in `namespaces` are the bindings'
// namespaces: a namespace with no team yet may appear.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "authz/authorizer.h"
#include "model/principal.h"

namespace allot {

struct NamespaceVisibility {
  bool all = false;
  std::vector<std::string> namespaces;  // sorted; empty when `all`

  [[nodiscard]] bool contains(std::string_view namespace_name) const;

  friend bool operator==(const NamespaceVisibility&, const NamespaceVisibility&) = default;
};

NamespaceVisibility visible_namespaces(const Authorizer& authorizer, const Caller& caller,
                                       std::string_view verb = "list",
                                       std::string_view resource = "workloads");
NamespaceVisibility visible_namespaces(const Authorizer& authorizer, const Principal& principal,
                                       std::string_view verb = "list",
                                       std::string_view resource = "workloads");

}  // namespace allot
