#include "identity/credentials/api_token.h"

#include <utility>

#include "identity/credentials/secret_codec.h"

namespace allot::identity {
namespace {

constexpr std::string_view kApiTokenPrefix = "allot_";
constexpr size_t kSecretBytes = 32;
constexpr size_t kEncodedLength = 43;  // base64url of 32 bytes, no padding

}  // namespace

IssuedApiToken issue_api_token(std::string id, std::string subject, std::vector<std::string> groups,
                               Timestamp now, std::optional<Timestamp> expires_at) {
  std::string token = std::string(kApiTokenPrefix) + base64url_encode(random_bytes(kSecretBytes));
  ApiTokenRecord record{std::move(id), std::move(subject), std::move(groups), api_token_hash(token),
                        now,           expires_at};
  return {std::move(token), std::move(record)};
}

bool is_api_token(std::string_view text) {
  return text.size() == kApiTokenPrefix.size() + kEncodedLength &&
         text.starts_with(kApiTokenPrefix) &&
         base64url_decode(text.substr(kApiTokenPrefix.size())).has_value();
}

std::string api_token_hash(std::string_view token) { return sha256_hex(token); }

nlohmann::json api_token_record_json(const ApiTokenRecord& record) {
  nlohmann::json json = {{"id", record.id},
                         {"subject", record.subject},
                         {"groups", record.groups},
                         {"hash", record.hash},
                         {"createdAtMs", record.created_at.ms()}};
  if (record.expires_at) json["expiresAtMs"] = record.expires_at->ms();
  return json;
}

Result<ApiTokenRecord> api_token_record_from_json(const nlohmann::json& json) {
  const auto bad = [] {
    return Status(ErrorCode::kInternal, "a stored API token record is malformed");
  };
  if (!json.is_object()) return bad();
  ApiTokenRecord record;
  try {
    record.id = json.at("id").get<std::string>();
    record.subject = json.at("subject").get<std::string>();
    record.groups = json.at("groups").get<std::vector<std::string>>();
    record.hash = json.at("hash").get<std::string>();
    record.created_at = Timestamp::from_millis(json.at("createdAtMs").get<int64_t>());
    if (json.contains("expiresAtMs")) {
      record.expires_at = Timestamp::from_millis(json.at("expiresAtMs").get<int64_t>());
    }
  } catch (const nlohmann::json::exception&) {
    return bad();
  }
  return record;
}

}  // namespace allot::identity
