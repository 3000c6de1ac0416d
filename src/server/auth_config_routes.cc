// GET /api/v1/authconfig: how a client may log in to this allotd, asked
// before any login (no authentication): the OIDC issuer, client id, scopes
// and device flow endpoints, and whether the local provider takes
// passwords. `allot login` needs only --server. docs/api.md, "Authentication".
#include <nlohmann/json.hpp>

#include "server/http_responses.h"
#include "server/routes.h"

namespace allot::server {
namespace {

nlohmann::json oidc_json(const OidcLoginConfig& config) {
  nlohmann::json out = {{"issuer", config.issuer},
                        {"clientId", config.client_id},
                        {"scopes", config.scopes},
                        {"usernameClaim", config.username_claim},
                        {"groupsClaim", config.groups_claim}};
  if (!config.device_authorization_endpoint.empty()) {
    out["deviceAuthorizationEndpoint"] = config.device_authorization_endpoint;
  }
  if (!config.token_endpoint.empty()) out["tokenEndpoint"] = config.token_endpoint;
  if (!config.authorization_endpoint.empty()) {
    out["authorizationEndpoint"] = config.authorization_endpoint;
  }
  if (!config.discovery_error.empty()) out["discoveryError"] = config.discovery_error;
  return out;
}

}  // namespace

void add_auth_config_routes(Router& http, const AccessControl& access) {
  http.get("/api/v1/authconfig", [&access](const HttpRequest&, HttpResponse& res) {
    const LoginMethods methods = access.login_methods();
    send_json(res, 200,
              {{"oidc", methods.oidc ? oidc_json(*methods.oidc) : nlohmann::json()},
               {"localLogin", methods.local},
               {"tokenLogin", true}});
  });
}

}  // namespace allot::server
