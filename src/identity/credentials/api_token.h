// API tokens: allot's long-lived bearer credentials (the first
// administrator's token in DATA/admin-token, service accounts' tokens), as
// opposed to sessions (session_token.h), which expire within hours.
//
// Contract:
// - A token is "allot_" followed by 43 base64url characters (32 random
//   bytes). It is shown once, when issued; allotd keeps only its SHA-256 (a
//   token carries 256 bits of entropy, so a fast hash cannot be searched;
//   passwords, which do not, get Argon2id: password_hash.h). The hash is
//   also the key a presented token is looked up by.
// - An ApiTokenRecord names whom the token stands for (subject, groups) and
//   may expire; records round-trip through JSON for the store (the hash,
//   never the token).
// Stateless functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "base/time.h"

namespace allot::identity {

struct ApiTokenRecord {
  std::string id;  // a name for the token: "admin", "sa-vision-ci-1", ...
  std::string subject;
  std::vector<std::string> groups;
  std::string hash;  // sha256_hex of the token
  Timestamp created_at;
  std::optional<Timestamp> expires_at;

  friend bool operator==(const ApiTokenRecord&, const ApiTokenRecord&) = default;
};

struct IssuedApiToken {
  std::string token;  // the secret: shown once, never stored
  ApiTokenRecord record;
};

IssuedApiToken issue_api_token(std::string id, std::string subject, std::vector<std::string> groups,
                               Timestamp now, std::optional<Timestamp> expires_at = std::nullopt);

// Whether `text` has an API token's shape (not whether it is valid).
bool is_api_token(std::string_view text);
std::string api_token_hash(std::string_view token);

nlohmann::json api_token_record_json(const ApiTokenRecord& record);
Result<ApiTokenRecord> api_token_record_from_json(const nlohmann::json& json);

}  // namespace allot::identity
