#include "identity/credentials/session_token.h"

#include <algorithm>
#include <utility>

#include "identity/credentials/secret_codec.h"

namespace allot::identity {
namespace {

constexpr std::string_view kSessionTokenPrefix = "allots_";
constexpr size_t kKeyBytes = 32;
constexpr size_t kMaxTokenBytes = 8192;

Status unauthenticated(std::string why) {
  return Status(ErrorCode::kUnauthenticated, "the session token is not valid: " + std::move(why));
}

SessionKey new_key(Timestamp now) {
  return {base64url_encode(random_bytes(9)), random_bytes(kKeyBytes), now};
}

Result<SessionClaims> claims_from(const nlohmann::json& payload) {
  SessionClaims claims;
  try {
    claims.subject = payload.at("sub").get<std::string>();
    claims.groups = payload.at("grp").get<std::vector<std::string>>();
    claims.team = payload.at("team").get<std::string>();
    claims.role = payload.at("role").get<std::string>();
    claims.issued_at = Timestamp::from_millis(payload.at("iat").get<int64_t>());
    claims.expires_at = Timestamp::from_millis(payload.at("exp").get<int64_t>());
  } catch (const nlohmann::json::exception&) {
    return unauthenticated("its claims are malformed");
  }
  return claims;
}

}  // namespace

SessionKeyRing SessionKeyRing::fresh(Timestamp now) {
  SessionKeyRing ring;
  ring.keys_.push_back(new_key(now));
  return ring;
}

const SessionKey* SessionKeyRing::find(std::string_view id) const {
  const auto it =
      std::find_if(keys_.begin(), keys_.end(), [&](const SessionKey& key) { return key.id == id; });
  return it == keys_.end() ? nullptr : &*it;
}

void SessionKeyRing::rotate(Timestamp now, Duration keep) {
  keys_.push_back(new_key(now));
  std::erase_if(keys_, [&](const SessionKey& key) {
    return &key != &keys_.back() && key.created_at + keep < now;
  });
}

nlohmann::json SessionKeyRing::to_json() const {
  nlohmann::json keys = nlohmann::json::array();
  for (const SessionKey& key : keys_) {
    keys.push_back({{"id", key.id},
                    {"secret", base64url_encode(key.secret)},
                    {"createdAtMs", key.created_at.ms()}});
  }
  return {{"keys", keys}};
}

Result<SessionKeyRing> SessionKeyRing::from_json(const nlohmann::json& json) {
  const Status bad(ErrorCode::kInternal, "the stored session keys are malformed");
  SessionKeyRing ring;
  try {
    for (const nlohmann::json& key : json.at("keys")) {
      std::optional<std::string> secret = base64url_decode(key.at("secret").get<std::string>());
      if (!secret || secret->size() != kKeyBytes) return bad;
      ring.keys_.push_back({key.at("id").get<std::string>(), std::move(*secret),
                            Timestamp::from_millis(key.at("createdAtMs").get<int64_t>())});
    }
  } catch (const nlohmann::json::exception&) {
    return bad;
  }
  if (ring.keys_.empty()) return bad;
  return ring;
}

std::string sign_session(const SessionClaims& claims, const SessionKey& key) {
  const nlohmann::json payload = {{"kid", key.id},
                                  {"sub", claims.subject},
                                  {"grp", claims.groups},
                                  {"team", claims.team},
                                  {"role", claims.role},
                                  {"iat", claims.issued_at.ms()},
                                  {"exp", claims.expires_at.ms()}};
  const std::string body = base64url_encode(payload.dump());
  return std::string(kSessionTokenPrefix) + body + "." +
         base64url_encode(hmac_sha256(key.secret, body));
}

bool is_session_token(std::string_view text) { return text.starts_with(kSessionTokenPrefix); }

Result<SessionClaims> verify_session(std::string_view token, const SessionKeyRing& ring,
                                     Timestamp now) {
  if (!is_session_token(token) || token.size() > kMaxTokenBytes) {
    return unauthenticated("it is not a session token");
  }
  const std::string_view rest = token.substr(kSessionTokenPrefix.size());
  const size_t dot = rest.find('.');
  if (dot == std::string_view::npos) return unauthenticated("it has no signature");
  const std::string_view body = rest.substr(0, dot);
  const std::optional<std::string> mac = base64url_decode(rest.substr(dot + 1));
  const std::optional<std::string> text = base64url_decode(body);
  if (!mac || !text) return unauthenticated("it is not base64url");
  const nlohmann::json payload = nlohmann::json::parse(*text, nullptr, false);
  if (!payload.is_object() || !payload.contains("kid") || !payload["kid"].is_string()) {
    return unauthenticated("its claims are malformed");
  }
  const SessionKey* key = ring.find(payload["kid"].get<std::string>());
  if (key == nullptr) return unauthenticated("it was signed by a key allotd no longer has");
  if (!constant_time_equal(*mac, hmac_sha256(key->secret, body))) {
    return unauthenticated("its signature does not match");
  }
  ALLOT_ASSIGN_OR_RETURN(SessionClaims claims, claims_from(payload));
  if (claims.expires_at <= now) return unauthenticated("it has expired");
  return claims;
}

}  // namespace allot::identity
