// Session tokens: what `POST /api/v1/sessions` gives for a login (a
// password, an OIDC token, an API token), bound to one team and one role
// (issue 11: a session carries one permission set), expiring within hours.
//
// Contract:
// - A token is "allots_" + base64url(payload JSON) + "." + base64url(HMAC-
//   SHA-256 under the key named in the payload). allotd signs and verifies
//   its own sessions, so a symmetric key suffices (no other party verifies
//   them); the keys are allotd's secrets, stored with its state.
// - SessionKeyRing: the current key signs; every key still in the ring
//   verifies, so that rotating the key logs nobody out. rotate() adds a new
//   current key and drops keys older than `keep` (the longest session
//   lifetime): their sessions have all expired.
// - verify_session(): the shape, the key (known, signature equal in
//   constant time), then the expiry against `now`. Every failure is
//   kUnauthenticated with a message that names what failed, never the
//   token.
// Value types and stateless functions; thread-compatible.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "base/time.h"

namespace allot::identity {

struct SessionClaims {
  std::string subject;
  std::vector<std::string> groups;
  std::string team;  // namespace; empty: a cluster-wide session
  std::string role;  // empty with an empty team
  Timestamp issued_at;
  Timestamp expires_at;

  friend bool operator==(const SessionClaims&, const SessionClaims&) = default;
};

struct SessionKey {
  std::string id;
  std::string secret;  // 32 random bytes
  Timestamp created_at;

  friend bool operator==(const SessionKey&, const SessionKey&) = default;
};

class SessionKeyRing {
 public:
  // A ring with one fresh key.
  static SessionKeyRing fresh(Timestamp now);

  [[nodiscard]] const SessionKey& current() const { return keys_.back(); }
  [[nodiscard]] const SessionKey* find(std::string_view id) const;
  [[nodiscard]] const std::vector<SessionKey>& keys() const { return keys_; }

  void rotate(Timestamp now, Duration keep);

  nlohmann::json to_json() const;
  static Result<SessionKeyRing> from_json(const nlohmann::json& json);

 private:
  std::vector<SessionKey> keys_;  // oldest first; the last is current
};

std::string sign_session(const SessionClaims& claims, const SessionKey& key);
bool is_session_token(std::string_view text);
Result<SessionClaims> verify_session(std::string_view token, const SessionKeyRing& ring,
                                     Timestamp now);

}  // namespace allot::identity
