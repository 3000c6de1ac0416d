// Decision: authz's answer to one request, with its reason (DESIGN.md
// section 4: every decision records why it was allowed or denied).
//
// Contract: a value. On allow, `binding`, `role` and `rule` name what
// granted the request (`RoleBinding "vision/members"`, `ClusterRole
// "team-member"`, the rule's text) and `why` says it in one sentence:
//   User "ana" may cancel workloads in namespace "vision": RoleBinding
//   "vision/members" grants ClusterRole "team-member" (verbs [...] on [...])
// On denial they are empty and `why` says what was asked and why not:
//   User "ana" cannot cancel workloads in namespace "vision": no binding grants it
// The server answers a denial with 403 and `why`; the audit log keeps both.
#pragma once

#include <string>

namespace allot {

struct Decision {
  bool allowed = false;
  std::string binding;
  std::string role;
  std::string rule;
  std::string why;

  friend bool operator==(const Decision&, const Decision&) = default;
};

}  // namespace allot
