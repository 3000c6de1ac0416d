#include "identity/oidc/authorization_code.h"

#include <array>
#include <cctype>
#include <utility>

#include <nlohmann/json.hpp>
#include <openssl/evp.h>

#include "identity/oidc/base64url.h"
#include "identity/oidc/strict_json.h"

namespace allot::oidc {
namespace {

// RFC 3986's unreserved characters stay; every other byte is %XX.
std::string authorization_code_percent_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((std::isalnum(byte) != 0) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4U];
      out += kHex[byte & 0xFU];
    }
  }
  return out;
}

std::string authorization_code_error_of(const HttpReply& reply) {
  const Result<nlohmann::json> doc = parse_strict_json(reply.body, "token response");
  if (!doc.ok() || !doc->is_object()) return "";
  const auto it = doc->find("error");
  return it != doc->end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

std::string pkce_s256_challenge(std::string_view code_verifier) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  EVP_Digest(code_verifier.data(), code_verifier.size(), digest.data(), &size, EVP_sha256(),
             nullptr);
  return base64url_encode(
      std::string_view(reinterpret_cast<const char*>(digest.data()), size));  // NOLINT
}

std::string authorization_url(const AuthorizationRequest& request) {
  std::string url = request.authorization_endpoint;
  url += url.find('?') == std::string::npos ? '?' : '&';
  const std::array<std::pair<const char*, const std::string*>, 6> params = {{
      {"client_id", &request.client_id},
      {"redirect_uri", &request.redirect_uri},
      {"scope", &request.scope},
      {"state", &request.state},
      {"nonce", &request.nonce},
      {"code_challenge", &request.code_challenge},
  }};
  url += "response_type=code";
  for (const auto& [name, value] : params) {
    url += std::string("&") + name + "=" + authorization_code_percent_encode(*value);
  }
  return url + "&code_challenge_method=S256";
}

Result<std::string> redeem_authorization_code(const CodeRedemption& redemption, HttpPort& http) {
  const FormFields form = {{"grant_type", "authorization_code"},
                           {"code", redemption.code},
                           {"redirect_uri", redemption.redirect_uri},
                           {"client_id", redemption.client_id},
                           {"code_verifier", redemption.code_verifier}};
  ALLOT_ASSIGN_OR_RETURN(HttpReply reply, http.post_form(redemption.token_endpoint, form));
  if (reply.status >= 400 && reply.status < 500) {
    const std::string error = authorization_code_error_of(reply);
    return Status(ErrorCode::kUnauthenticated, "the issuer refused the authorization code (HTTP " +
                                                   std::to_string(reply.status) +
                                                   (error.empty() ? "" : ", " + error) + ")");
  }
  if (reply.status != 200) {
    return Status(ErrorCode::kUnavailable,
                  "the issuer's token endpoint answered HTTP " + std::to_string(reply.status));
  }
  ALLOT_ASSIGN_OR_RETURN(nlohmann::json doc, parse_strict_json(reply.body, "token response"));
  const auto it = doc.is_object() ? doc.find("id_token") : doc.end();
  if (it == doc.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
    return Status(ErrorCode::kUnavailable, "the token response has no id_token");
  }
  return it->get<std::string>();
}

}  // namespace allot::oidc
