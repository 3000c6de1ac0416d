// NamespaceContents: what lives in a team's namespace outside the policy
// (service accounts and their tokens), asked before the namespace goes away.
//
// Contract: a team whose namespace holds such an object cannot be deleted,
// nor have its namespace changed (PolicyService refuses with the object's
// name): a team made again with that namespace would otherwise find the old
// team's service accounts, and their tokens would act in it. Roles and
// RoleBindings need no such check: they are policy documents, and a policy
// whose Role lives in no team's namespace does not validate.
//
// Lock order: PolicyService asks under the policy gate, held exclusively; an
// implementation that adds objects holds the gate shared from its check that
// the team exists to its commit, so neither can slip past the other.
#pragma once

#include <optional>
#include <string>

namespace allot {

class NamespaceContents {
 public:
  virtual ~NamespaceContents() = default;
  // An object of `namespace_name` ("service account 'vision/ci'"), if any.
  [[nodiscard]] virtual std::optional<std::string> first_object_in(
      const std::string& namespace_name) const = 0;
};

}  // namespace allot
