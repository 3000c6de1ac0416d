// OidcAuthenticator: the IdTokenAuthenticator of an OpenID Connect issuer
// (allotd --oidc-issuer URL --oidc-client-id ID): tokens verified by
// identity/oidc's TokenVerifier (signature against the issuer's JWKS, exact
// iss and aud, exp/nbf with leeway, RS256/ES256 only), then mapped to an
// allot identity.
//
// Contract:
// - The subject is the username claim (`preferred_username` by default, as
//   Entra ID and Okta send it; `sub`, `email` or any claim by configuration):
//   a non-empty string, else kUnauthenticated naming the claim. A username
//   beginning with "system:" is refused: that prefix names allot's own
//   identities (allotd itself, service accounts), which no identity provider
//   may claim.
// - The groups are the verifier's groups claim (`groups` by default). A token
//   without it has none: Entra ID's group overage (`_claim_names.groups`
//   instead of the list) lands here too, and the SCIM directory's
//   memberships are then the only groups (docs/oidc.md).
// - expires_at is the token's `exp`.
// - login_config() asks `discover` for the issuer's endpoints (the adapter
//   keeps what it found); a failure is remembered for `discovery_retry`, so
//   that unauthenticated callers of GET /api/v1/authconfig cannot make
//   allotd hammer an issuer that is down.
// - start_browser_login() draws the state, nonce and PKCE verifier (32
//   random bytes each, base64url) and builds the authorization URL from the
//   discovery document's authorization_endpoint (the same remembered failure
//   as login_config()); redeem_browser_code() posts the code and its verifier
//   to the token endpoint through `http` (identity/oidc/authorization_code.h).
//   Without `http` both are kFailedPrecondition.
// Time is the caller's. Thread-safe (the verifier has its own lock; the
// remembered discovery has this class's).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "base/mutex.h"
#include "identity/oidc/discovery.h"
#include "identity/oidc/http_port.h"
#include "identity/oidc/token_verifier.h"
#include "service/control/id_token_authenticator.h"

namespace allot {

struct OidcAuthenticatorOptions {
  std::string username_claim = "preferred_username";
  std::string scopes = "openid profile email";
  Duration discovery_retry = Duration::seconds(10);
};

class OidcAuthenticator final : public IdTokenAuthenticator {
 public:
  using Discover = std::function<Result<oidc::ProviderMetadata>()>;

  // REQUIRES: `verifier` and `http` (may be null: no browser login) outlive
  // this; `discover` is thread-safe.
  OidcAuthenticator(oidc::TokenVerifier& verifier, Discover discover,
                    OidcAuthenticatorOptions options, oidc::HttpPort* http = nullptr);

  Result<ExternalIdentity> authenticate(std::string_view token, Timestamp now) override;
  OidcLoginConfig login_config(Timestamp now) override ALLOT_EXCLUDES(mu_);
  Result<BrowserLoginStart> start_browser_login(const std::string& redirect_uri,
                                                Timestamp now) override ALLOT_EXCLUDES(mu_);
  Result<std::string> redeem_browser_code(const std::string& code, const std::string& code_verifier,
                                          const std::string& redirect_uri, Timestamp now) override
      ALLOT_EXCLUDES(mu_);

 private:
  // The discovery document, or the failure remembered for discovery_retry.
  Result<oidc::ProviderMetadata> metadata(Timestamp now) ALLOT_EXCLUDES(mu_);

  oidc::HttpPort* const http_;
  oidc::TokenVerifier& verifier_;
  const Discover discover_;
  const OidcAuthenticatorOptions options_;
  Mutex mu_;
  std::optional<Timestamp> failed_at_ ALLOT_GUARDED_BY(mu_);
  std::string failure_ ALLOT_GUARDED_BY(mu_);
};

}  // namespace allot
