// HttpJwksSource: the JwksSource over HTTPS. Reads the issuer's discovery
// document (ISSUER/.well-known/openid-configuration), checks that it names
// the configured issuer exactly, then fetches `jwks_uri`.
//
// Contract: discovery is fetched on the first fetch_jwks() and again after a
// failure (so a moved jwks_uri is followed); the JWKS document's text is
// returned unparsed (KeyCache parses it). A non-200 answer is kUnavailable.
// Rate limiting is KeyCache's; this adapter does what it is asked.
// Thread-safe (a mutex guards the discovered metadata).
#pragma once

#include <optional>
#include <string>

#include "base/mutex.h"
#include "identity/oidc/discovery.h"
#include "identity/oidc/http_port.h"
#include "identity/oidc/jwks_source.h"

namespace allot::oidc {

class HttpJwksSource final : public JwksSource {
 public:
  // REQUIRES: `http` outlives the source.
  HttpJwksSource(std::string issuer, HttpPort& http) : issuer_(std::move(issuer)), http_(http) {}

  Result<std::string> fetch_jwks() override ALLOT_EXCLUDES(mu_);
  // The issuer's metadata (fetched if not yet): the device flow's endpoints.
  Result<ProviderMetadata> metadata() ALLOT_EXCLUDES(mu_);

 private:
  Result<ProviderMetadata> discover() ALLOT_REQUIRES(mu_);

  const std::string issuer_;
  HttpPort& http_;
  Mutex mu_;
  std::optional<ProviderMetadata> metadata_ ALLOT_GUARDED_BY(mu_);
};

}  // namespace allot::oidc
