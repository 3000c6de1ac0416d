#include "service/control/oidc_authenticator.h"

#include <string>
#include <utility>
#include <vector>

#include "identity/credentials/secret_codec.h"
#include "identity/oidc/authorization_code.h"
#include "model/principal.h"

namespace allot {
namespace {

Status refused(const std::string& why) {
  return {ErrorCode::kUnauthenticated, "OIDC token refused: " + why};
}

// The verifier's messages start "token refused: "; they are said once, as ours.
Status reworded(const Status& status) {
  constexpr std::string_view kTheirs = "token refused: ";
  std::string message = status.message();
  if (message.starts_with(kTheirs)) message.erase(0, kTheirs.size());
  if (status.code() == ErrorCode::kUnauthenticated) return refused(message);
  return {status.code(), "OIDC token not verified: " + message};
}

std::string random_login_secret() { return identity::base64url_encode(identity::random_bytes(32)); }

Status no_browser_login() {
  return {ErrorCode::kFailedPrecondition, "this allotd has no HTTP client for the issuer"};
}

}  // namespace

OidcAuthenticator::OidcAuthenticator(oidc::TokenVerifier& verifier, Discover discover,
                                     OidcAuthenticatorOptions options, oidc::HttpPort* http)
    : http_(http),
      verifier_(verifier),
      discover_(std::move(discover)),
      options_(std::move(options)) {}

Result<ExternalIdentity> OidcAuthenticator::authenticate(std::string_view token, Timestamp now) {
  Result<oidc::VerifiedToken> verified = verifier_.verify(token, now);
  if (!verified.ok()) return reworded(verified.status());
  const std::string& claim = options_.username_claim;
  const auto it = verified->claims.find(claim);
  if (it == verified->claims.end() || !it->is_string() || it->get<std::string>().empty()) {
    return refused("claim " + claim + " (the username claim, --oidc-username-claim) is missing");
  }
  std::string subject = it->get<std::string>();
  if (is_reserved_name(subject)) {
    return refused("claim " + claim + " names a reserved system: user");
  }
  // A group the issuer calls "system:..." is not allot's group of that name
  // (principal.h): it is dropped, never trusted.
  std::vector<std::string> groups = std::move(verified->groups);
  std::erase_if(groups, [](const std::string& group) { return is_reserved_name(group); });
  const auto nonce = verified->claims.find("nonce");
  return ExternalIdentity{
      std::move(subject), std::move(groups), verified->expires_at,
      nonce != verified->claims.end() && nonce->is_string() ? nonce->get<std::string>() : ""};
}

Result<oidc::ProviderMetadata> OidcAuthenticator::metadata(Timestamp now) {
  MutexLock lock(mu_);
  if (failed_at_ && now < *failed_at_ + options_.discovery_retry) {
    return Status(ErrorCode::kUnavailable, failure_);
  }
  Result<oidc::ProviderMetadata> metadata = discover_();
  if (!metadata.ok()) {
    failed_at_ = now;
    failure_ = "the issuer's discovery document cannot be had: " + metadata.status().message();
    return Status(ErrorCode::kUnavailable, failure_);
  }
  failed_at_.reset();
  return metadata;
}

OidcLoginConfig OidcAuthenticator::login_config(Timestamp now) {
  const oidc::VerifierConfig& verifier = verifier_.config();
  OidcLoginConfig config;
  config.issuer = verifier.issuer;
  config.client_id = verifier.client_id;
  config.scopes = options_.scopes;
  config.username_claim = options_.username_claim;
  config.groups_claim = verifier.groups_claim;
  const Result<oidc::ProviderMetadata> found = metadata(now);
  if (!found.ok()) {
    config.discovery_error = found.status().message();
    return config;
  }
  config.device_authorization_endpoint = found->device_authorization_endpoint.value_or("");
  config.token_endpoint = found->token_endpoint.value_or("");
  config.authorization_endpoint = found->authorization_endpoint.value_or("");
  return config;
}

Result<BrowserLoginStart> OidcAuthenticator::start_browser_login(const std::string& redirect_uri,
                                                                 Timestamp now) {
  if (http_ == nullptr) return no_browser_login();
  ALLOT_ASSIGN_OR_RETURN(oidc::ProviderMetadata found, metadata(now));
  if (!found.authorization_endpoint || !found.token_endpoint) {
    return Status(ErrorCode::kUnavailable,
                  "the issuer's discovery document names no authorization_endpoint or "
                  "token_endpoint");
  }
  BrowserLoginStart start{.url = "",
                          .state = random_login_secret(),
                          .nonce = random_login_secret(),
                          .code_verifier = random_login_secret()};
  start.url =
      oidc::authorization_url({.authorization_endpoint = *found.authorization_endpoint,
                               .client_id = verifier_.config().client_id,
                               .redirect_uri = redirect_uri,
                               .scope = options_.scopes,
                               .state = start.state,
                               .nonce = start.nonce,
                               .code_challenge = oidc::pkce_s256_challenge(start.code_verifier)});
  return start;
}

Result<std::string> OidcAuthenticator::redeem_browser_code(const std::string& code,
                                                           const std::string& code_verifier,
                                                           const std::string& redirect_uri,
                                                           Timestamp now) {
  if (http_ == nullptr) return no_browser_login();
  ALLOT_ASSIGN_OR_RETURN(oidc::ProviderMetadata found, metadata(now));
  if (!found.token_endpoint) {
    return Status(ErrorCode::kUnavailable,
                  "the issuer's discovery document names no token_endpoint");
  }
  return oidc::redeem_authorization_code({.token_endpoint = *found.token_endpoint,
                                          .client_id = verifier_.config().client_id,
                                          .redirect_uri = redirect_uri,
                                          .code = code,
                                          .code_verifier = code_verifier},
                                         *http_);
}

}  // namespace allot
