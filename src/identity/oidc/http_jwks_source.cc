#include "identity/oidc/http_jwks_source.h"

namespace allot::oidc {
namespace {

Result<std::string> body_of(Result<HttpReply> reply, const char* what) {
  if (!reply.ok()) return reply.status();
  if (reply->status != 200) {
    return Status(ErrorCode::kUnavailable,
                  std::string(what) + " answered HTTP " + std::to_string(reply->status));
  }
  return std::move(reply->body);
}

}  // namespace

Result<ProviderMetadata> HttpJwksSource::discover() {
  if (metadata_) return *metadata_;
  ALLOT_ASSIGN_OR_RETURN(std::string document,
                         body_of(http_.get(discovery_url(issuer_)), "the discovery endpoint"));
  auto metadata = parse_discovery(document, issuer_);
  if (!metadata.ok()) return Status(ErrorCode::kUnavailable, metadata.status().message());
  metadata_ = *metadata;
  return metadata;
}

Result<ProviderMetadata> HttpJwksSource::metadata() {
  MutexLock lock(mu_);
  return discover();
}

Result<std::string> HttpJwksSource::fetch_jwks() {
  MutexLock lock(mu_);
  ALLOT_ASSIGN_OR_RETURN(ProviderMetadata metadata, discover());
  auto jwks = body_of(http_.get(metadata.jwks_uri), "the jwks_uri");
  if (!jwks.ok()) metadata_.reset();  // rediscover next time
  return jwks;
}

}  // namespace allot::oidc
