#include "service/control/oidc_authenticator.h"

#include <string>
#include <utility>
#include <vector>

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

}  // namespace

OidcAuthenticator::OidcAuthenticator(oidc::TokenVerifier& verifier, Discover discover,
                                     OidcAuthenticatorOptions options)
    : verifier_(verifier), discover_(std::move(discover)), options_(std::move(options)) {}

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
  return ExternalIdentity{std::move(subject), std::move(groups), verified->expires_at};
}

OidcLoginConfig OidcAuthenticator::login_config(Timestamp now) {
  const oidc::VerifierConfig& verifier = verifier_.config();
  OidcLoginConfig config;
  config.issuer = verifier.issuer;
  config.client_id = verifier.client_id;
  config.scopes = options_.scopes;
  config.username_claim = options_.username_claim;
  config.groups_claim = verifier.groups_claim;
  MutexLock lock(mu_);
  if (failed_at_ && now < *failed_at_ + options_.discovery_retry) {
    config.discovery_error = failure_;
    return config;
  }
  const Result<oidc::ProviderMetadata> metadata = discover_();
  if (!metadata.ok()) {
    failed_at_ = now;
    failure_ = "the issuer's discovery document cannot be had: " + metadata.status().message();
    config.discovery_error = failure_;
    return config;
  }
  failed_at_.reset();
  config.device_authorization_endpoint = metadata->device_authorization_endpoint.value_or("");
  config.token_endpoint = metadata->token_endpoint.value_or("");
  return config;
}

}  // namespace allot
