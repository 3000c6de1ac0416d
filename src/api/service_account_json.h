// JSON of service accounts and their tokens (docs/api.md, "Service accounts").
//
// Contract: pure; nothing throws.
// - service_account_name_of(): the name of a create request, either
//   {"name": NAME} or a manifest {"apiVersion": "allot/v1" (or "v1"),
//   "kind": "ServiceAccount", "metadata": {"name": NAME, "namespace": NS}}
//   whose namespace, when given, is the one of the path. Any other key, a
//   wrong kind or type is kInvalidArgument naming the field.
// - token_lifetime_of(): {} or {"expirationSeconds": N}, N a positive
//   integer (the range is the service's to check). Unknown keys are errors.
// - The encoders never include a token except issued_token_json(), the one
//   answer that carries the secret.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "base/time.h"
#include "model/views/service_account_view.h"

namespace allot {

Result<std::string> service_account_name_of(const nlohmann::json& body,
                                            std::string_view path_namespace);
Result<std::optional<Duration>> token_lifetime_of(const nlohmann::json& body);

nlohmann::json service_account_json(const ServiceAccountView& account);
// {"items": [...]}
nlohmann::json service_account_list_json(const std::vector<ServiceAccountView>& accounts);
nlohmann::json service_account_token_json(const ServiceAccountTokenView& token);
// {"items": [...]}
nlohmann::json service_account_token_list_json(const std::vector<ServiceAccountTokenView>& tokens);
nlohmann::json issued_token_json(const IssuedToken& issued);

}  // namespace allot
