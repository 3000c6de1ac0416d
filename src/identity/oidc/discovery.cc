#include "identity/oidc/discovery.h"

#include <nlohmann/json.hpp>

#include "identity/oidc/strict_json.h"

namespace allot::oidc {
namespace {

using Json = nlohmann::json;

Result<std::optional<std::string>> endpoint(const Json& doc, const char* name) {
  const auto it = doc.find(name);
  if (it == doc.end()) return std::optional<std::string>();
  if (!it->is_string() || !is_acceptable_endpoint(it->get_ref<const std::string&>())) {
    return invalid_argument(std::string("discovery document: ") + name + " is not an https URL");
  }
  return std::optional<std::string>(it->get<std::string>());
}

}  // namespace

std::string discovery_url(std::string_view issuer) {
  std::string url(issuer);
  if (!url.empty() && url.back() == '/') url.pop_back();
  return url + "/.well-known/openid-configuration";
}

bool is_acceptable_endpoint(std::string_view url) {
  if (url.starts_with("https://")) return url.size() > 8;
  for (std::string_view loopback : {"http://127.0.0.1", "http://[::1]", "http://localhost"}) {
    if (url.starts_with(loopback)) {
      const std::string_view rest = url.substr(loopback.size());
      if (rest.empty() || rest[0] == ':' || rest[0] == '/') return true;
    }
  }
  return false;
}

Result<ProviderMetadata> parse_discovery(std::string_view document,
                                         std::string_view expected_issuer) {
  if (document.size() > kMaxDiscoveryBytes) {
    return invalid_argument("discovery document is larger than 256 KiB");
  }
  ALLOT_ASSIGN_OR_RETURN(Json doc, parse_strict_json(document, "discovery document"));
  if (!doc.is_object()) return invalid_argument("discovery document is not a JSON object");
  ProviderMetadata out;
  const auto issuer = doc.find("issuer");
  if (issuer == doc.end() || !issuer->is_string()) {
    return invalid_argument("discovery document: no issuer");
  }
  if (*issuer != expected_issuer) {
    return invalid_argument("discovery document: issuer differs from the configured issuer");
  }
  out.issuer = issuer->get<std::string>();
  ALLOT_ASSIGN_OR_RETURN(auto jwks_uri, endpoint(doc, "jwks_uri"));
  if (!jwks_uri) return invalid_argument("discovery document: no jwks_uri");
  out.jwks_uri = std::move(*jwks_uri);
  ALLOT_ASSIGN_OR_RETURN(out.token_endpoint, endpoint(doc, "token_endpoint"));
  ALLOT_ASSIGN_OR_RETURN(out.authorization_endpoint, endpoint(doc, "authorization_endpoint"));
  ALLOT_ASSIGN_OR_RETURN(out.device_authorization_endpoint,
                         endpoint(doc, "device_authorization_endpoint"));
  return out;
}

}  // namespace allot::oidc
