// The lifecycle transitions of connection contracts (issue 15, item 3):
// POST /api/v1/contracts/{name}/{approve|activate|review|renew|revoke} with
// {"reason": "..."}; the answer is the contract with its status. The
// contracts themselves are applied, read and deleted by the policy routes.
// The decisions on requested PolicyExceptions (issue 15, item 6):
// POST /api/v1/policyexceptions/{name}/{approve|reject} with {"reason"};
// the answer is the exception with its status.
#include <string>

#include <nlohmann/json.hpp>

#include "api/cluster_view_json.h"
#include "governance/contract_lifecycle.h"
#include "governance/exception_lifecycle.h"
#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"

namespace allot::server {
namespace {

Result<std::string> transition_reason(const HttpRequest& req) {
  const nlohmann::json body = nlohmann::json::parse(req.body, nullptr, false);
  if (body.is_discarded() || !body.is_object()) {
    return invalid_argument("the body must be a JSON object {\"reason\": \"...\"}", "body");
  }
  const auto reason = body.find("reason");
  if (reason == body.end() || !reason->is_string()) {
    return invalid_argument("reason: expected a string: why", "reason");
  }
  for (const auto& [key, value] : body.items()) {
    if (key != "reason") return invalid_argument("unknown field '" + key + "'", key);
  }
  return reason->get<std::string>();
}

void transition_contract(ContractService& contracts, const HttpRequest& req, HttpResponse& res) {
  const std::optional<ContractAction> action = parse_contract_action(req.matches[2]);
  if (!action) return send_error(res, not_found("unknown transition"));
  const Result<std::string> reason = transition_reason(req);
  if (!reason.ok()) return send_error(res, reason.status());
  const Result<PolicyObjectView> view =
      contracts.transition(caller_of(req), req.matches[1], *action, *reason);
  if (!view.ok()) return send_error(res, view.status());
  const Result<nlohmann::json> body = policy_object_json(*view);
  if (!body.ok()) return send_error(res, body.status());
  send_json(res, 200, *body);
}

void decide_exception(ExceptionService& exceptions, const HttpRequest& req, HttpResponse& res) {
  const std::optional<ExceptionAction> action = parse_exception_action(req.matches[2]);
  if (!action) return send_error(res, not_found("unknown decision"));
  const Result<std::string> reason = transition_reason(req);
  if (!reason.ok()) return send_error(res, reason.status());
  const Result<PolicyObjectView> view =
      exceptions.decide(caller_of(req), req.matches[1], *action, *reason);
  if (!view.ok()) return send_error(res, view.status());
  const Result<nlohmann::json> body = policy_object_json(*view);
  if (!body.ok()) return send_error(res, body.status());
  send_json(res, 200, *body);
}

}  // namespace

void add_contract_routes(Router& http, ControlPlane& plane) {
  ContractService& contracts = plane.contracts();
  http.post("/api/v1/contracts/([^/]+)/(approve|activate|review|renew|revoke)",
            [&contracts](const HttpRequest& req, HttpResponse& res) {
              transition_contract(contracts, req, res);
            });
  ExceptionService& exceptions = plane.exceptions();
  http.post("/api/v1/policyexceptions/([^/]+)/(approve|reject)",
            [&exceptions](const HttpRequest& req, HttpResponse& res) {
              decide_exception(exceptions, req, res);
            });
}

}  // namespace allot::server
