// OidcPendingLogins: the browser logins allotd has sent to the OIDC issuer
// and not yet seen come back (GET /ui/oidc/login .. /ui/oidc/callback,
// ui_oidc_routes.cc): per `state`, the nonce, the PKCE code verifier, the
// redirect URI and the team and role asked for.
//
// Contract: put() keeps a login for `ttl` (10 minutes by default); take()
// returns it once and forgets it (a replayed state, or one past its time,
// is nullopt), so every state, nonce and verifier serves one login. At most
// `capacity` logins are kept: put() first drops the expired ones, then the
// oldest. Nothing is stored on disk: a restart forgets them (the person logs
// in again). Time is the caller's. Thread-safe.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include "base/mutex.h"
#include "base/time.h"

namespace allot::server {

struct OidcPendingLogin {
  std::string nonce;
  std::string code_verifier;
  std::string redirect_uri;
  std::string team;
  std::string role;
};

class OidcPendingLogins {
 public:
  explicit OidcPendingLogins(Duration ttl = Duration::minutes(10), size_t capacity = 4096)
      : ttl_(ttl), capacity_(capacity) {}

  void put(const std::string& state, OidcPendingLogin login, Timestamp now) ALLOT_EXCLUDES(mu_);
  std::optional<OidcPendingLogin> take(const std::string& state, Timestamp now) ALLOT_EXCLUDES(mu_);
  [[nodiscard]] size_t size() const ALLOT_EXCLUDES(mu_);

 private:
  struct Entry {
    OidcPendingLogin login;
    Timestamp created;
  };
  void drop_expired(Timestamp now) ALLOT_REQUIRES(mu_);

  const Duration ttl_;
  const size_t capacity_;
  mutable Mutex mu_;
  std::map<std::string, Entry> by_state_ ALLOT_GUARDED_BY(mu_);
};

}  // namespace allot::server
