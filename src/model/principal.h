// Principal: who calls a use case. Every use case of the service layer takes
// one, so that authorization (authz/) decides per call and records why.
//
// Contract: a value. `subject` names the caller: a user's name, a service
// account as "system:serviceaccount:<namespace>:<name>" (Kubernetes' form,
// from which authz derives the kind and the groups
// "system:serviceaccounts" and "system:serviceaccounts:<namespace>"), or
// "system:anonymous"; `groups` are what the identity provider says it
// belongs to. `scope`, when set, is the session's team and role (issue 11:
// a session token bound to one team and one permission set): the caller may
// then do only what that role grants in that namespace, and only what its
// bindings grant as well.
//
// Names that start "system:" are allot's own: the group "system:admins"
// (bound to cluster-admin by authz's built-in ClusterRoleBinding, as
// Kubernetes binds "system:masters"), service accounts, allotd itself
// (system()). No identity from outside may carry one: SCIM refuses such a
// userName or group displayName, an OIDC token naming such a user is refused
// and such groups of its groups claim are dropped, and the directory's groups
// are filtered the same way (is_reserved_name). anonymous_admin() and
// system() are for allotd's own work and tests; requests never get them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace allot {

inline constexpr std::string_view kReservedNamePrefix = "system:";

// True for a name only allot itself may give (see above).
inline bool is_reserved_name(std::string_view name) {
  return name.starts_with(kReservedNamePrefix);
}

// The team and role a session is limited to: a Role of that namespace or a
// ClusterRole, applied in that namespace; with no namespace, a ClusterRole
// applied at cluster scope only (a contract approver's session).
struct SessionScope {
  std::string namespace_name;
  std::string role;

  friend bool operator==(const SessionScope&, const SessionScope&) = default;
};

struct Principal {
  std::string subject;
  std::vector<std::string> groups;
  // Grants every right in caller_rights.h. Only anonymous_admin() and
  // system() set it; authz ignores it and grants through bindings.
  bool admin = false;
  std::optional<SessionScope> scope = std::nullopt;  // none: every right the bindings give

  static Principal anonymous_admin() { return {"system:anonymous", {"system:admins"}, true}; }
  static Principal system() { return {"system:allotd", {"system:admins"}, true}; }
  static Principal user(std::string name, std::vector<std::string> groups = {}) {
    return {std::move(name), std::move(groups), false};
  }

  friend bool operator==(const Principal&, const Principal&) = default;
};

}  // namespace allot
