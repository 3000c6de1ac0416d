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
// - start_browser_login() and redeem_browser_code() are the two steps of the
//   web dashboard's login (the authorization code grant with PKCE, RFC 7636):
//   see below.
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
  std::string nonce;  // the token's `nonce` claim ("" when it has none)
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
  std::string authorization_endpoint;         // "" when not known (the browser login's)
  std::string discovery_error;                // why they are not known
};

// The first step of a browser login (the authorization code grant with PKCE):
// where the browser goes, and the secrets allotd keeps until it comes back.
struct BrowserLoginStart {
  std::string url;  // the issuer's authorization endpoint with the request
  std::string state;
  std::string nonce;
  std::string code_verifier;
};

class IdTokenAuthenticator {
 public:
  virtual ~IdTokenAuthenticator() = default;
  virtual Result<ExternalIdentity> authenticate(std::string_view token, Timestamp now) = 0;
  virtual OidcLoginConfig login_config(Timestamp now) = 0;
  // A new state, nonce and PKCE verifier (random, 32 bytes each) and the
  // authorization URL that carries the state, the nonce and the verifier's
  // S256 challenge; kUnavailable while the issuer's discovery document (its
  // authorization_endpoint) cannot be had.
  virtual Result<BrowserLoginStart> start_browser_login(const std::string& redirect_uri,
                                                        Timestamp now) = 0;
  // The ID token the issuer gives for `code` and its verifier (not verified
  // here: authenticate() does that). kUnauthenticated when the issuer refuses
  // the code (used, expired, another verifier), kUnavailable when it cannot
  // be asked.
  virtual Result<std::string> redeem_browser_code(const std::string& code,
                                                  const std::string& code_verifier,
                                                  const std::string& redirect_uri,
                                                  Timestamp now) = 0;
};

}  // namespace allot
