// allotd's OIDC login (`--oidc-issuer URL --oidc-client-id ID`): the
// implementations chosen and wired together here, as app/ does for every
// port: the HTTPS client (identity/oidc/oidc_http_client.h), the issuer's
// discovery document and JWKS (http_jwks_source.h), the TokenVerifier and
// the OidcAuthenticator that AccessControl is handed
// (service/control/oidc_authenticator.h).
//
// Contract: make() checks the flags (an https issuer, or http on a loopback
// host; a client id; claims and durations well formed) and fetches nothing:
// the discovery document and the keys are fetched on first use, so allotd
// starts and serves while the issuer is down (OIDC tokens are then refused
// with 503 and the reason). Owns what it builds; thread-safe as they are.
#pragma once

#include <memory>
#include <string>

#include "base/result.h"
#include "identity/oidc/http_jwks_source.h"
#include "identity/oidc/oidc_http_client.h"
#include "identity/oidc/token_verifier.h"
#include "service/control/oidc_authenticator.h"

namespace allot::app {

struct OidcFlags {
  std::string issuer;
  std::string client_id;
  std::string username_claim = "preferred_username";
  std::string groups_claim = "groups";
  std::string scopes = "openid profile email";
  std::string ca_file;
  std::string jwks_min_refetch = "60s";
};

class OidcLogin {
 public:
  static Result<std::unique_ptr<OidcLogin>> make(const OidcFlags& flags);

  IdTokenAuthenticator& authenticator() { return authenticator_; }

 private:
  OidcLogin(const OidcFlags& flags, oidc::VerifierConfig config);

  oidc::OidcHttpClient http_;
  oidc::HttpJwksSource keys_;
  oidc::TokenVerifier verifier_;
  OidcAuthenticator authenticator_;
};

}  // namespace allot::app
