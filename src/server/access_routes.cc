// Sessions (the login), whoami, access reviews (`allot auth can-i`) and API
// token rotation (`allot token rotate`). docs/api.md, "Authentication".
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/rfc3339.h"
#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"
#include "server/session_login.h"

namespace allot::server {
namespace {

// What an access review asks about.
struct AccessRequestView {
  std::string verb;
  std::string resource;
  std::string namespace_name;
  std::string name;
  std::string user;  // empty: the caller
  std::vector<std::string> groups;
};

void open_session(AccessControl& access, const HttpRequest& req, HttpResponse& res) {
  const std::optional<nlohmann::json> body = json_object_body(req, res);
  if (!body) return;
  const Result<OpenedSession> session = open_session_from(access, *body);
  if (!session.ok()) return send_error(res, session.status());
  nlohmann::json answer = session_json(session->claims);
  answer["token"] = session->token;
  send_json(res, 201, answer);
}

Result<AccessRequestView> review_request_of(const nlohmann::json& body) {
  AccessRequestView view;
  ALLOT_ASSIGN_OR_RETURN(view.verb, string_member(body, "verb"));
  ALLOT_ASSIGN_OR_RETURN(view.resource, string_member(body, "resource"));
  ALLOT_ASSIGN_OR_RETURN(view.namespace_name, string_member(body, "namespace"));
  ALLOT_ASSIGN_OR_RETURN(view.name, string_member(body, "name"));
  ALLOT_ASSIGN_OR_RETURN(view.user, string_member(body, "user"));
  if (body.contains("groups")) {
    if (!body["groups"].is_array()) return invalid_argument("groups must be a list", "groups");
    for (const nlohmann::json& group : body["groups"]) {
      if (!group.is_string()) return invalid_argument("groups must be strings", "groups");
      view.groups.push_back(group.get<std::string>());
    }
  }
  if (view.verb.empty() || view.resource.empty()) {
    return invalid_argument("an access review names a verb and a resource", "verb");
  }
  return view;
}

// Like kubectl auth can-i: about the caller, or (with "user", which needs
// the right to impersonate users) about someone else.
void review(const AccessControl& access, const HttpRequest& req, HttpResponse& res) {
  const std::optional<nlohmann::json> body = json_object_body(req, res);
  if (!body) return;
  const Result<AccessRequestView> request = review_request_of(*body);
  if (!request.ok()) return send_error(res, request.status());
  Principal subject = caller_of(req);
  if (!request->user.empty()) {
    const Status may = access.authorize(subject, "impersonate", "users", "", request->user);
    if (!may.ok()) return send_error(res, may);
    subject = Principal::user(request->user, request->groups);
  }
  const Decision decision = access.review(subject, request->verb, request->resource,
                                          request->namespace_name, request->name);
  send_json(res, 200,
            {{"allowed", decision.allowed},
             {"reason", decision.why},
             {"binding", decision.binding},
             {"role", decision.role},
             {"rule", decision.rule}});
}

void whoami(const HttpRequest& req, HttpResponse& res) {
  const Principal& caller = caller_of(req);
  nlohmann::json body = {{"subject", caller.subject}, {"groups", caller.groups}};
  body["team"] = caller.scope ? caller.scope->namespace_name : "";
  body["role"] = caller.scope ? caller.scope->role : "";
  send_json(res, 200, body);
}

}  // namespace

void add_access_routes(Router& http, ControlPlane& plane) {
  AccessControl& access = plane.access();
  http.post("/api/v1/sessions", [&access](const HttpRequest& req, HttpResponse& res) {
    open_session(access, req, res);
  });
  http.get("/api/v1/whoami", [](const HttpRequest& req, HttpResponse& res) { whoami(req, res); });
  http.post("/api/v1/accessreviews",
            [&access](const HttpRequest& req, HttpResponse& res) { review(access, req, res); });
  http.post(
      R"(/api/v1/tokens/([^/]+)/rotate)", [&access](const HttpRequest& req, HttpResponse& res) {
        const Result<std::string> token = access.rotate_api_token(caller_of(req), req.matches[1]);
        if (!token.ok()) return send_error(res, token.status());
        send_json(res, 200, {{"id", req.matches[1]}, {"token", *token}});
      });
}

}  // namespace allot::server
