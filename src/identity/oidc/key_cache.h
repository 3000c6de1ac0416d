// KeyCache: the issuer's signing keys, fetched through a JwksSource and kept
// until they need refreshing, with refetches rate-limited.
//
// Contract: key_for(kid, alg, now) answers from the cached JWKS. The JWKS is
// (re)fetched when:
//   - none has been fetched yet;
//   - the token's kid is not in it (key rotation): at most ONE refetch per
//     call, and never when the last fetch attempt was less than
//     `min_refetch_interval` ago, so tokens with forged kids cannot make
//     allotd hammer the issuer (a storm of N such tokens costs at most one
//     fetch per interval);
//   - it is older than `max_age` (keys the issuer removed stop being trusted).
// A failed fetch keeps the previous keys (stale keys beat an outage) and
// counts as an attempt for the rate limit. A fetched document that does not
// parse is a failed fetch. Time comes from the caller (`now`); nothing here
// reads a clock. Thread-safe: one mutex; a fetch happens under it, so
// concurrent callers wait for one fetch rather than each making their own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/mutex.h"
#include "base/result.h"
#include "base/time.h"
#include "identity/oidc/jwks.h"
#include "identity/oidc/jwks_source.h"

namespace allot::oidc {

struct KeyCacheOptions {
  Duration min_refetch_interval = Duration::seconds(60);
  Duration max_age = Duration::hours(1);
};

class KeyCache {
 public:
  // REQUIRES: `source` outlives the cache.
  KeyCache(JwksSource& source, KeyCacheOptions options) : source_(source), options_(options) {}

  // The key to verify a token with header `kid`/`alg`: kUnauthenticated when
  // no key fits (after the refetch the rules allow), kUnavailable when no JWKS
  // was ever fetched.
  Result<Jwk> key_for(const std::optional<std::string>& kid, JwsAlg alg, Timestamp now)
      ALLOT_EXCLUDES(mu_);

  // How many times the source was asked (tests, metrics).
  [[nodiscard]] int64_t fetches() const ALLOT_EXCLUDES(mu_);

 private:
  // Fetches now if the rate limit allows; false if it did not try.
  bool try_refetch(Timestamp now) ALLOT_REQUIRES(mu_);

  JwksSource& source_;
  const KeyCacheOptions options_;
  mutable Mutex mu_;
  std::optional<Jwks> jwks_ ALLOT_GUARDED_BY(mu_);
  std::optional<Timestamp> fetched_at_ ALLOT_GUARDED_BY(mu_);    // last success
  std::optional<Timestamp> attempted_at_ ALLOT_GUARDED_BY(mu_);  // last try
  Status last_error_ ALLOT_GUARDED_BY(mu_);
  int64_t fetches_ ALLOT_GUARDED_BY(mu_) = 0;
};

}  // namespace allot::oidc
