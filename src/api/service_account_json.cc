#include "api/service_account_json.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "api/rfc3339.h"

namespace allot {
namespace {

constexpr int64_t kMaxSeconds = int64_t{1} << 40;  // far past any lifetime, far from overflow

// kInvalidArgument for the first key of `object` not in `allowed`; `prefix`
// is the object's path ("metadata.").
Status only_keys(const nlohmann::json& object, const std::set<std::string>& allowed,
                 const std::string& prefix) {
  for (const auto& [key, value] : object.items()) {
    if (!allowed.contains(key)) {
      return invalid_argument("unknown field '" + prefix + key + "'", prefix + key);
    }
  }
  return {};
}

Result<std::string> string_at(const nlohmann::json& object, const std::string& key,
                              const std::string& field) {
  if (!object.contains(key)) return std::string();
  if (!object[key].is_string()) return invalid_argument(field + " must be a string", field);
  return object[key].get<std::string>();
}

Result<std::string> manifest_name_of(const nlohmann::json& body, std::string_view path_namespace) {
  ALLOT_RETURN_IF_ERROR(only_keys(body, {"apiVersion", "kind", "metadata"}, ""));
  ALLOT_ASSIGN_OR_RETURN(const std::string api_version,
                         string_at(body, "apiVersion", "apiVersion"));
  if (!api_version.empty() && api_version != "allot/v1" && api_version != "v1") {
    return invalid_argument("apiVersion must be allot/v1 (or v1, as Kubernetes writes it)",
                            "apiVersion");
  }
  ALLOT_ASSIGN_OR_RETURN(const std::string kind, string_at(body, "kind", "kind"));
  if (!kind.empty() && kind != "ServiceAccount") {
    return invalid_argument("kind must be ServiceAccount", "kind");
  }
  if (!body.contains("metadata") || !body["metadata"].is_object()) {
    return invalid_argument("a service account needs metadata.name (or send {\"name\": NAME})",
                            "metadata");
  }
  const nlohmann::json& metadata = body["metadata"];
  ALLOT_RETURN_IF_ERROR(only_keys(metadata, {"name", "namespace"}, "metadata."));
  ALLOT_ASSIGN_OR_RETURN(const std::string namespace_name,
                         string_at(metadata, "namespace", "metadata.namespace"));
  if (!namespace_name.empty() && namespace_name != path_namespace) {
    return invalid_argument("metadata.namespace is not the namespace of the path",
                            "metadata.namespace");
  }
  return string_at(metadata, "name", "metadata.name");
}

nlohmann::json token_fields(const ServiceAccountTokenView& token) {
  nlohmann::json token_json = {{"id", token.id}, {"createdAt", format_rfc3339(token.created_at)}};
  if (token.expires_at) token_json["expiresAt"] = format_rfc3339(*token.expires_at);
  return token_json;
}

}  // namespace

Result<std::string> service_account_name_of(const nlohmann::json& body,
                                            std::string_view path_namespace) {
  if (!body.is_object()) return invalid_argument("the body must be a JSON object");
  std::string name;
  if (body.contains("name")) {
    ALLOT_RETURN_IF_ERROR(only_keys(body, {"name"}, ""));
    ALLOT_ASSIGN_OR_RETURN(name, string_at(body, "name", "name"));
  } else {
    ALLOT_ASSIGN_OR_RETURN(name, manifest_name_of(body, path_namespace));
  }
  if (name.empty()) return invalid_argument("a service account needs a name", "name");
  return name;
}

Result<std::optional<Duration>> token_lifetime_of(const nlohmann::json& body) {
  if (!body.is_object()) return invalid_argument("the body must be a JSON object");
  ALLOT_RETURN_IF_ERROR(only_keys(body, {"expirationSeconds"}, ""));
  if (!body.contains("expirationSeconds")) return std::optional<Duration>();
  const nlohmann::json& seconds = body["expirationSeconds"];
  if (!seconds.is_number_integer() || seconds.get<int64_t>() <= 0) {
    return invalid_argument("expirationSeconds must be a positive integer", "expirationSeconds");
  }
  // Unsigned values past INT64_MAX read as negative above; huge ones are capped
  // here so that the service's range check, not an overflow, refuses them.
  return std::optional<Duration>(Duration::seconds(std::min(seconds.get<int64_t>(), kMaxSeconds)));
}

nlohmann::json service_account_json(const ServiceAccountView& account) {
  nlohmann::json tokens = nlohmann::json::array();
  for (const ServiceAccountTokenView& token : account.tokens) {
    tokens.push_back(service_account_token_json(token));
  }
  return {{"apiVersion", "allot/v1"},
          {"kind", "ServiceAccount"},
          {"metadata",
           {{"name", account.name},
            {"namespace", account.namespace_name},
            {"creationTimestamp", format_rfc3339(account.created_at)}}},
          {"subject", account.subject},
          {"tokens", tokens}};
}

nlohmann::json service_account_list_json(const std::vector<ServiceAccountView>& accounts) {
  nlohmann::json items = nlohmann::json::array();
  for (const ServiceAccountView& account : accounts) items.push_back(service_account_json(account));
  return {{"items", items}};
}

nlohmann::json service_account_token_json(const ServiceAccountTokenView& token) {
  nlohmann::json token_json = token_fields(token);
  token_json["expired"] = token.expired;
  return token_json;
}

nlohmann::json service_account_token_list_json(const std::vector<ServiceAccountTokenView>& tokens) {
  nlohmann::json items = nlohmann::json::array();
  for (const ServiceAccountTokenView& token : tokens) {
    items.push_back(service_account_token_json(token));
  }
  return {{"items", items}};
}

nlohmann::json issued_token_json(const IssuedToken& issued) {
  nlohmann::json token_json = token_fields(issued.view);
  token_json["namespace"] = issued.namespace_name;
  token_json["serviceAccount"] = issued.service_account;
  token_json["token"] = issued.token;
  return token_json;
}

}  // namespace allot
