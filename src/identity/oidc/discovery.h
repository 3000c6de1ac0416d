// OpenID Provider metadata (OpenID Connect Discovery 1.0, the document at
// ISSUER/.well-known/openid-configuration).
//
// Contract: parse_discovery() requires `issuer` to equal the configured issuer
// exactly (section 4.3: no normalisation, no trailing-slash tolerance) and
// `jwks_uri` to be an https URL (http only for loopback hosts, which the
// tests' provider uses). `token_endpoint`, `authorization_endpoint` and
// `device_authorization_endpoint` are optional here (the verifier needs only
// the JWKS; the device flow checks for them). Errors name the member that
// failed. Pure functions, thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace allot::oidc {

inline constexpr size_t kMaxDiscoveryBytes = size_t{256} * 1024;

struct ProviderMetadata {
  std::string issuer;
  std::string jwks_uri;
  std::optional<std::string> token_endpoint;
  std::optional<std::string> device_authorization_endpoint;
  std::optional<std::string> authorization_endpoint;  // the browser login's
};

// ISSUER + "/.well-known/openid-configuration" (one slash between them).
std::string discovery_url(std::string_view issuer);

// Whether `url` is https, or http to 127.0.0.1, [::1] or localhost.
bool is_acceptable_endpoint(std::string_view url);

Result<ProviderMetadata> parse_discovery(std::string_view document,
                                         std::string_view expected_issuer);

}  // namespace allot::oidc
