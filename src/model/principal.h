// Principal: who calls a use case. Every use case of the service layer takes
// one, so that authorization (the future `authz` layer) decides per call and
// records why.
//
// Contract: a value. `subject` names the caller (a user, a service account,
// "system:anonymous"); `groups` are what the identity provider says it belongs
// to. Until identity exists (SCIM, OIDC, tokens), allotd serves every request
// as anonymous_admin(): the API has no authentication yet and every caller may
// do everything, which is what the API did before principals existed.
// system() is allotd itself (the admission loop, recovery).
#pragma once

#include <string>
#include <vector>

namespace allot {

struct Principal {
  std::string subject;
  std::vector<std::string> groups;
  // Grants every right. Only anonymous_admin() and system() set it; the
  // identity issue replaces it with roles bound through RBAC.
  bool admin = false;

  static Principal anonymous_admin() { return {"system:anonymous", {"system:admins"}, true}; }
  static Principal system() { return {"system:allotd", {"system:admins"}, true}; }

  friend bool operator==(const Principal&, const Principal&) = default;
};

}  // namespace allot
