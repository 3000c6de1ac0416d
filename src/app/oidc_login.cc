#include "app/oidc_login.h"

#include <sstream>
#include <string_view>
#include <utility>

#include "identity/oidc/discovery.h"

namespace allot::app {
namespace {

Status flag_error(const std::string& flag, const std::string& why) {
  return invalid_argument(flag + " " + why, flag);
}

// Whether the space-separated `scopes` name `scope`.
bool has_scope(const std::string& scopes, std::string_view scope) {
  std::istringstream words(scopes);
  std::string word;
  while (words >> word) {
    if (word == scope) return true;
  }
  return false;
}

Result<oidc::VerifierConfig> verifier_config(const OidcFlags& flags) {
  if (flags.issuer.empty()) return flag_error("--oidc-issuer", "is required with a client id");
  if (!oidc::is_acceptable_endpoint(flags.issuer)) {
    return flag_error("--oidc-issuer",
                      "must be an https URL (http only to 127.0.0.1, [::1] or localhost)");
  }
  if (flags.client_id.empty()) return flag_error("--oidc-client-id", "is required with an issuer");
  if (flags.username_claim.empty()) return flag_error("--oidc-username-claim", "is empty");
  if (flags.groups_claim.empty()) return flag_error("--oidc-groups-claim", "is empty");
  if (!has_scope(flags.scopes, "openid")) {
    return flag_error("--oidc-scopes", "must include openid (the ID token is the login)");
  }
  const Result<Duration> refetch = parse_duration(flags.jwks_min_refetch);
  if (!refetch.ok() || *refetch < Duration::seconds(0)) {
    return flag_error("--oidc-jwks-min-refetch", "wants a duration such as 60s");
  }
  oidc::VerifierConfig config;
  config.issuer = flags.issuer;
  config.client_id = flags.client_id;
  config.groups_claim = flags.groups_claim;
  config.keys.min_refetch_interval = *refetch;
  return config;
}

}  // namespace

Result<std::unique_ptr<OidcLogin>> OidcLogin::make(const OidcFlags& flags) {
  ALLOT_ASSIGN_OR_RETURN(oidc::VerifierConfig config, verifier_config(flags));
  return std::unique_ptr<OidcLogin>(new OidcLogin(flags, std::move(config)));
}

OidcLogin::OidcLogin(const OidcFlags& flags, oidc::VerifierConfig config)
    : http_(oidc::OidcHttpOptions{.ca_cert_path = flags.ca_file}),
      keys_(flags.issuer, http_),
      verifier_(std::move(config), keys_),
      authenticator_(
          verifier_, [this] { return keys_.metadata(); },
          OidcAuthenticatorOptions{.username_claim = flags.username_claim, .scopes = flags.scopes},
          &http_) {}

}  // namespace allot::app
