#include "identity/oidc/jwt.h"

#include <algorithm>
#include <array>

#include "identity/oidc/base64url.h"
#include "identity/oidc/strict_json.h"

namespace allot::oidc {
namespace {

using Json = nlohmann::json;

Status refused(std::string why) {
  return {ErrorCode::kUnauthenticated, "token refused: " + std::move(why)};
}

// Splits at the two dots; a token with more or fewer parts (JWE has five) is refused.
Result<std::array<std::string_view, 3>> split_parts(std::string_view token) {
  const size_t first = token.find('.');
  if (first == std::string_view::npos) return refused("not a JWS compact token (no '.')");
  const size_t second = token.find('.', first + 1);
  if (second == std::string_view::npos) return refused("not a JWS compact token (two parts)");
  if (token.find('.', second + 1) != std::string_view::npos) {
    return refused("not a JWS compact token (more than three parts)");
  }
  return std::array<std::string_view, 3>{token.substr(0, first),
                                         token.substr(first + 1, second - first - 1),
                                         token.substr(second + 1)};
}

Result<Json> decode_object(std::string_view part, std::string_view what) {
  auto bytes = base64url_decode(part, what);
  if (!bytes.ok()) return refused(bytes.status().message());
  auto json = parse_strict_json(*bytes, what);
  if (!json.ok()) return refused(json.status().message());
  if (!json->is_object()) return refused(std::string(what) + " is not a JSON object");
  return std::move(json).value();
}

Status check_header(const Json& header, std::span<const JwsAlg> allowed, ParsedJwt& out) {
  const auto alg_it = header.find("alg");
  if (alg_it == header.end() || !alg_it->is_string()) return refused("header has no string alg");
  const auto alg = jws_alg_from_name(alg_it->get_ref<const std::string&>());
  if (!alg || std::find(allowed.begin(), allowed.end(), *alg) == allowed.end()) {
    return refused("header alg is not an allowed algorithm");
  }
  out.alg = *alg;
  if (header.contains("crit")) return refused("header crit names extensions not understood");
  const auto kid_it = header.find("kid");
  if (kid_it != header.end()) {
    if (!kid_it->is_string()) return refused("header kid is not a string");
    out.kid = kid_it->get<std::string>();
  }
  return {};
}

}  // namespace

std::string_view jws_alg_name(JwsAlg alg) {
  switch (alg) {
    case JwsAlg::kRs256: return "RS256";
    case JwsAlg::kPs256: return "PS256";
    case JwsAlg::kEs256: return "ES256";
  }
  return "?";
}

std::optional<JwsAlg> jws_alg_from_name(std::string_view name) {
  for (JwsAlg alg : {JwsAlg::kRs256, JwsAlg::kPs256, JwsAlg::kEs256}) {
    if (jws_alg_name(alg) == name) return alg;
  }
  return std::nullopt;
}

Result<ParsedJwt> parse_jwt(std::string_view token, std::span<const JwsAlg> allowed) {
  if (token.size() > kMaxTokenBytes) return refused("longer than 16 KiB");
  ALLOT_ASSIGN_OR_RETURN(auto parts, split_parts(token));
  ParsedJwt out;
  ALLOT_ASSIGN_OR_RETURN(out.header, decode_object(parts[0], "JWT header"));
  ALLOT_RETURN_IF_ERROR(check_header(out.header, allowed, out));
  ALLOT_ASSIGN_OR_RETURN(out.claims, decode_object(parts[1], "JWT claims"));
  auto signature = base64url_decode(parts[2], "JWT signature");
  if (!signature.ok()) return refused(signature.status().message());
  if (signature->empty()) return refused("empty signature");
  out.signature = std::move(signature).value();
  out.signing_input = std::string(token.substr(0, parts[0].size() + 1 + parts[1].size()));
  return out;
}

}  // namespace allot::oidc
