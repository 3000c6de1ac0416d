// Subject: whom a RoleBinding or ClusterRoleBinding grants its role to.
//
// Contract: a value. A User and a Group are names as the identity layer
// reports them (the principal's subject and groups); a ServiceAccount is
// namespace-qualified and matches the principal whose subject is
// "system:serviceaccount:<namespace>:<name>", as in Kubernetes; in a
// RoleBinding an empty namespace means the binding's own. namespace_name is
// empty for User and Group.
#pragma once

#include <string>

namespace allot {

enum class SubjectKind { kUser, kGroup, kServiceAccount };

struct Subject {
  SubjectKind kind = SubjectKind::kUser;
  std::string name;
  std::string namespace_name;  // ServiceAccount only

  friend bool operator==(const Subject&, const Subject&) = default;
};

}  // namespace allot
