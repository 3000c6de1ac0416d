// IdTokenAuthenticator: the port through which AccessControl accepts logins
// from an external identity provider: OIDC ID tokens and JWT access tokens
// (issue 11, DESIGN.md section 4). app/ chooses the implementation
// (oidc_authenticator.h: identity/oidc's TokenVerifier over the issuer's
// discovery document and JWKS); AccessControl sees only this port.
//
// Contract:
// - authenticate(token, now) says who a token names: its subject (the
//   username claim), its groups (the groups claim; none when the claim is
//   absent) and when it expires (`exp`: no session opened with it may
//   outlive it). Otherwise kUnauthenticated, with a message that names the
//   check that failed, or kUnavailable when the issuer's keys cannot be had.
//   Messages never carry the token or a claim's value.
// - login_config(now) is what a client needs to log in (GET
//   /api/v1/authconfig): the issuer, the client id and the scopes, and the
//   device flow's endpoints from the issuer's discovery document; while that
//   document cannot be had, the endpoints are empty and discovery_error
//   says why.
// Implementations are thread-safe and may block on network I/O.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/time.h"

namespace allot {

// Who an external token names.
struct ExternalIdentity {
  std::string subject;
  std::vector<std::string> groups;
  Timestamp expires_at;
};

// How to log in with the issuer (the device authorization grant, RFC 8628).
struct OidcLoginConfig {
  std::string issuer;
  std::string client_id;
  std::string scopes;  // space-separated, as the device authorization request sends them
  std::string username_claim;
  std::string groups_claim;
  std::string device_authorization_endpoint;  // "" when not known
  std::string token_endpoint;                 // "" when not known
  std::string discovery_error;                // why they are not known
};

class IdTokenAuthenticator {
 public:
  virtual ~IdTokenAuthenticator() = default;
  virtual Result<ExternalIdentity> authenticate(std::string_view token, Timestamp now) = 0;
  virtual OidcLoginConfig login_config(Timestamp now) = 0;
};

}  // namespace allot
