// Service accounts and their tokens (docs/api.md, "Service accounts"):
//   POST   /api/v1/namespaces/{ns}/serviceaccounts                   create
//   GET    /api/v1/namespaces/{ns}/serviceaccounts                   list one namespace
//   GET    /api/v1/serviceaccounts                                   list every visible one
//   GET    /api/v1/namespaces/{ns}/serviceaccounts/{name}            get
//   DELETE /api/v1/namespaces/{ns}/serviceaccounts/{name}            delete, with its tokens
//   POST   /api/v1/namespaces/{ns}/serviceaccounts/{name}/tokens     issue (201, the token once)
//   GET    /api/v1/namespaces/{ns}/serviceaccounts/{name}/tokens     list (never the secrets)
//   DELETE /api/v1/namespaces/{ns}/serviceaccounts/{name}/tokens/{id} revoke
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "api/service_account_json.h"
#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"

namespace allot::server {
namespace {

constexpr size_t kMaxBody = size_t{16} << 10;
constexpr const char* kAccounts = "/api/v1/namespaces/([^/]+)/serviceaccounts";
constexpr const char* kAccount = "/api/v1/namespaces/([^/]+)/serviceaccounts/([^/]+)";
constexpr const char* kTokens = "/api/v1/namespaces/([^/]+)/serviceaccounts/([^/]+)/tokens";
constexpr const char* kToken = "/api/v1/namespaces/([^/]+)/serviceaccounts/([^/]+)/tokens/([^/]+)";

// The body as JSON ({} when empty and `empty_is_object`), or an answer sent.
std::optional<nlohmann::json> json_body(const HttpRequest& req, HttpResponse& res,
                                        bool empty_is_object) {
  if (req.body.size() > kMaxBody) {
    send_error(res, invalid_argument("the body is larger than 16 KiB"));
    return std::nullopt;
  }
  if (req.body.empty() && empty_is_object) return nlohmann::json::object();
  nlohmann::json body = nlohmann::json::parse(req.body, nullptr, false);
  if (!body.is_object()) {
    send_error(res, invalid_argument("the body must be a JSON object"));
    return std::nullopt;
  }
  return body;
}

void create_account(ServiceAccounts& accounts, const HttpRequest& req, HttpResponse& res) {
  const std::optional<nlohmann::json> body = json_body(req, res, false);
  if (!body) return;
  const Result<std::string> name = service_account_name_of(*body, req.matches[1]);
  if (!name.ok()) return send_error(res, name.status());
  const Result<ServiceAccountView> created = accounts.create(caller_of(req), req.matches[1], *name);
  if (!created.ok()) return send_error(res, created.status());
  send_json(res, 201, service_account_json(*created));
}

void issue_token(ServiceAccounts& accounts, const HttpRequest& req, HttpResponse& res) {
  const std::optional<nlohmann::json> body = json_body(req, res, true);
  if (!body) return;
  const Result<std::optional<Duration>> lifetime = token_lifetime_of(*body);
  if (!lifetime.ok()) return send_error(res, lifetime.status());
  const Result<IssuedToken> issued =
      accounts.issue_token(caller_of(req), req.matches[1], req.matches[2], *lifetime);
  if (!issued.ok()) return send_error(res, issued.status());
  send_json(res, 201, issued_token_json(*issued));
  // The one answer that holds a secret: no cache may keep it.
  res.set_header("Cache-Control", "no-store");
}

void list_accounts(const ServiceAccounts& accounts, const HttpRequest& req, HttpResponse& res,
                   const std::string& namespace_name) {
  const Result<std::vector<ServiceAccountView>> listed =
      accounts.list(caller_of(req), namespace_name);
  if (!listed.ok()) return send_error(res, listed.status());
  send_json(res, 200, service_account_list_json(*listed));
}

void add_token_routes(Router& http, ServiceAccounts& accounts) {
  http.post(kTokens, [&accounts](const HttpRequest& req, HttpResponse& res) {
    issue_token(accounts, req, res);
  });
  http.get(kTokens, [&accounts](const HttpRequest& req, HttpResponse& res) {
    const Result<std::vector<ServiceAccountTokenView>> tokens =
        accounts.tokens(caller_of(req), req.matches[1], req.matches[2]);
    if (!tokens.ok()) return send_error(res, tokens.status());
    send_json(res, 200, service_account_token_list_json(*tokens));
  });
  http.del(kToken, [&accounts](const HttpRequest& req, HttpResponse& res) {
    const Status revoked =
        accounts.revoke_token(caller_of(req), req.matches[1], req.matches[2], req.matches[3]);
    if (!revoked.ok()) return send_error(res, revoked);
    send_json(res, 200, {{"deleted", req.matches[3]}});
  });
}

}  // namespace

void add_service_account_routes(Router& http, ControlPlane& plane) {
  ServiceAccounts& accounts = plane.service_accounts();
  http.post(kAccounts, [&accounts](const HttpRequest& req, HttpResponse& res) {
    create_account(accounts, req, res);
  });
  http.get(kAccounts, [&accounts](const HttpRequest& req, HttpResponse& res) {
    list_accounts(accounts, req, res, req.matches[1]);
  });
  http.get("/api/v1/serviceaccounts", [&accounts](const HttpRequest& req, HttpResponse& res) {
    list_accounts(accounts, req, res, "");
  });
  http.get(kAccount, [&accounts](const HttpRequest& req, HttpResponse& res) {
    const Result<ServiceAccountView> account =
        accounts.get(caller_of(req), req.matches[1], req.matches[2]);
    if (!account.ok()) return send_error(res, account.status());
    send_json(res, 200, service_account_json(*account));
  });
  http.del(kAccount, [&accounts](const HttpRequest& req, HttpResponse& res) {
    const Status deleted = accounts.delete_account(caller_of(req), req.matches[1], req.matches[2]);
    if (!deleted.ok()) return send_error(res, deleted);
    send_json(res, 200, {{"deleted", req.matches[1] + "/" + req.matches[2]}});
  });
  add_token_routes(http, accounts);
}

}  // namespace allot::server
