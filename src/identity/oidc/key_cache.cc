#include "identity/oidc/key_cache.h"

#include <utility>

namespace allot::oidc {

bool KeyCache::try_refetch(Timestamp now) {
  if (attempted_at_ && now < *attempted_at_ + options_.min_refetch_interval) return false;
  attempted_at_ = now;
  ++fetches_;
  auto document = source_.fetch_jwks();
  if (!document.ok()) {
    last_error_ = document.status();
    return true;
  }
  auto parsed = parse_jwks(*document);
  if (!parsed.ok()) {
    last_error_ = Status(ErrorCode::kUnavailable,
                         "the issuer's JWKS is unusable: " + parsed.status().message());
    return true;
  }
  jwks_ = std::move(parsed).value();
  fetched_at_ = now;
  last_error_ = Status();
  return true;
}

Result<Jwk> KeyCache::key_for(const std::optional<std::string>& kid, JwsAlg alg, Timestamp now) {
  MutexLock lock(mu_);
  bool refetched = false;
  if (!jwks_ || (fetched_at_ && now >= *fetched_at_ + options_.max_age)) {
    refetched = try_refetch(now);
  }
  if (!jwks_) {
    return Status(ErrorCode::kUnavailable,
                  "no JWKS from the issuer yet" +
                      (last_error_.ok() ? std::string() : ": " + last_error_.message()));
  }
  // An unknown kid may be a rotated-in key: one refetch, if none happened in this call.
  if (kid && !jwks_->has_kid(*kid) && !refetched) try_refetch(now);
  const Jwk* key = jwks_->find(kid, alg);
  if (key == nullptr) {
    return Status(ErrorCode::kUnauthenticated,
                  kid ? "token refused: no key of the issuer has the token's kid for its alg"
                      : "token refused: no kid and no single key of the issuer fits its alg");
  }
  return *key;
}

int64_t KeyCache::fetches() const {
  MutexLock lock(mu_);
  return fetches_;
}

}  // namespace allot::oidc
