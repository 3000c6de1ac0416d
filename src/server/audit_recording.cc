#include "server/audit_recording.h"

#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/http_responses.h"
#include "server/session_cookie.h"

namespace allot::server {
namespace {

// Views into `path` (request_attributes() copies only the ones it keeps).
std::vector<std::string_view> segments_of(std::string_view path) {
  std::vector<std::string_view> out;
  out.reserve(8);
  size_t start = 0;
  while (start < path.size()) {
    const size_t slash = std::min(path.find('/', start), path.size());
    if (slash > start) out.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

std::string verb_of(const std::string& method, const RequestAttributes& attributes) {
  if (method == "DELETE") return "delete";
  if (method == "PUT") return "update";
  if (method == "PATCH") return "patch";
  if (method == "GET" || method == "HEAD") {
    return attributes.object.name.empty() ? "list" : "get";
  }
  const std::string& sub = attributes.object.subresource;
  if (attributes.object.name.empty() || sub.empty()) return "create";
  if (sub == "cancel") return "cancel";
  if (sub == "tokens" || sub == "checkpoint") return "create";
  return "update";  // resume, scale, cordon, drain, uncordon, rotate
}

std::string string_member(const std::string& body, const char* key) {
  const nlohmann::json body_json = nlohmann::json::parse(body, nullptr, false);
  if (body_json.is_discarded() || !body_json.is_object()) return {};
  const auto found = body_json.find(key);
  return found != body_json.end() && found->is_string() ? found->get<std::string>() : std::string();
}

bool is_login(const HttpRequest& request) {
  return request.method == "POST" && request.path == "/api/v1/sessions";
}

// The end of the web dashboard's OIDC login (ui_oidc_routes.cc): its query
// carries the issuer's authorization code and the state.
bool is_browser_oidc_login(const HttpRequest& request) {
  return request.path == "/ui/oidc/callback";
}

// Who the session cookie that `response` sets names ("" when none).
std::string subject_of_set_session(const HttpResponse& response, const AccessControl* access) {
  if (access == nullptr) return {};
  const std::string prefix = std::string(kSessionCookie) + "=";
  const auto [first, last] = response.headers.equal_range("Set-Cookie");
  for (auto it = first; it != last; ++it) {
    if (!it->second.starts_with(prefix)) continue;
    const size_t end = std::min(it->second.find(';'), it->second.size());
    const Result<Principal> caller =
        access->authenticate("Bearer " + it->second.substr(prefix.size(), end - prefix.size()));
    if (caller.ok()) return caller->subject;
  }
  return {};
}

void set_user(governance::AuditEvent& event, const HttpRequest& request,
              const HttpResponse& response, const AccessControl* access) {
  if (request.caller) {
    event.username = request.caller->subject;
    event.groups = request.caller->groups;
    return;
  }
  if (is_browser_oidc_login(request)) event.username = subject_of_set_session(response, access);
  if (is_login(request)) {
    // Who logged in (the session's subject) or, refused, the name a
    // password login gave; never the credential.
    event.username = response.status / 100 == 2 ? string_member(response.body, "subject")
                                                : string_member(request.body, "user");
  }
  if (event.username.empty()) {
    event.username = request.path.starts_with("/scim/") ? "system:scim" : "system:anonymous";
  }
}

void set_decision(governance::AuditEvent& event, const HttpRequest& request,
                  const HttpResponse& response, const AccessControl* access) {
  if (response.status == 401 || response.status == 403) {
    event.decision = "forbid";
    event.reason = event.response_message;
    return;
  }
  if (access == nullptr || !request.caller || event.object_ref->resource.empty()) return;
  if (request.caller->admin) {
    event.decision = "allow";
    event.reason = "allotd's own administrator";
    return;
  }
  const governance::AuditObjectRef& ref = *event.object_ref;
  const std::string resource =
      ref.subresource.empty() ? ref.resource : ref.resource + "/" + ref.subresource;
  const Decision decision =
      access->review(*request.caller, event.verb, resource, ref.namespace_name, ref.name);
  event.decision = decision.allowed ? "allow" : "forbid";
  event.reason = decision.why;
  if (decision.allowed) {
    event.rbac_rule = decision.binding + " grants " + decision.role + ": " + decision.rule;
  }
}

}  // namespace

bool is_audited(const HttpRequest& request, const HttpResponse& response) {
  if (response.status == 401 || response.status == 403) return true;
  if (is_browser_oidc_login(request)) return true;
  return request.method != "GET" && request.method != "HEAD" && request.method != "OPTIONS";
}

RequestAttributes request_attributes(const HttpRequest& request) {
  RequestAttributes attributes;
  const std::vector<std::string_view> parts = segments_of(request.path);
  governance::AuditObjectRef& ref = attributes.object;
  size_t at = 0;
  if (parts.size() >= 2 && parts[0] == "api" && parts[1] == "v1") {
    at = 2;
    ref.api_group = "allot.dev";
  } else if (parts.size() >= 2 && parts[0] == "scim" && parts[1] == "v2") {
    at = 2;
    ref.api_group = "scim";
  }
  if (at == 2 && parts.size() >= 4 && parts[2] == "namespaces") {
    ref.namespace_name = parts[3];
    at = 4;
  }
  if (at < parts.size()) ref.resource = parts[at];
  if (at + 1 < parts.size()) ref.name = parts[at + 1];
  if (at + 2 < parts.size()) ref.subresource = parts[at + 2];
  if (ref.resource == "roles" || ref.resource == "rolebindings" || ref.resource == "clusterroles" ||
      ref.resource == "clusterrolebindings") {
    ref.api_group = "rbac.authorization.k8s.io";
  }
  attributes.verb = verb_of(request.method, attributes);
  if ((ref.resource == "contracts" || ref.resource == "policyexceptions") &&
      request.method == "POST" && !ref.subresource.empty()) {
    // A contract's transition, an exception's decision: its own verb (approve, ...).
    attributes.verb = ref.subresource;
    ref.subresource.clear();
  }
  return attributes;
}

governance::AuditEvent audit_event_of(const HttpRequest& request, const HttpResponse& response,
                                      const AccessControl* access, Timestamp received,
                                      Timestamp done) {
  RequestAttributes attributes = request_attributes(request);
  governance::AuditEvent event;
  // Never the authorization code (nor the state) of a browser's OIDC login.
  event.request_uri = is_browser_oidc_login(request) ? request.path : request.target;
  event.verb = attributes.verb;
  event.object_ref = std::move(attributes.object);
  event.source_ips = {request.remote_address};
  event.response_code = response.status;
  if (response.status >= 400) event.response_message = string_member(response.body, "message");
  if (event.response_message.empty() && response.status >= 400) {
    event.response_message = string_member(response.body, "detail");  // SCIM's errors
  }
  set_user(event, request, response, access);
  set_decision(event, request, response, access);
  event.request_received = received;
  event.stage_time = done;
  return event;
}

governance::AuditEvent provisional_audit_event(const HttpRequest& request,
                                               const AccessControl* access, Timestamp received) {
  HttpResponse unanswered;
  unanswered.status = 0;
  return audit_event_of(request, unanswered, access, received, received);
}

namespace {

// The final record from the provisional one the request's scope holds, when
// the answer changes nothing but its code and message: not a login (who
// logged in is read from the answer) nor a refusal (forbid, with the
// answer's message as the reason). The caller, verb, object and the
// authorizer's decision are the ones the request ran under.
std::optional<governance::AuditEvent> final_from_provisional(audit::RequestScope* scope,
                                                             const HttpRequest& request,
                                                             const HttpResponse& response) {
  if (scope == nullptr || response.status == 401 || response.status == 403 || is_login(request) ||
      is_browser_oidc_login(request)) {
    return std::nullopt;
  }
  governance::AuditEvent event = scope->take_provisional();
  event.response_code = response.status;
  if (response.status >= 400) event.response_message = string_member(response.body, "message");
  if (event.response_message.empty() && response.status >= 400) {
    event.response_message = string_member(response.body, "detail");  // SCIM's errors
  }
  return event;
}

}  // namespace

void finish_audited(audit::AuditLog& log, audit::AuditOutbox* outbox, audit::RequestScope* scope,
                    const AccessControl* access, const HttpRequest& request, HttpResponse& response,
                    Timestamp received) {
  if (!is_audited(request, response)) return;
  const Timestamp done = log.now();
  std::optional<governance::AuditEvent> reused = final_from_provisional(scope, request, response);
  governance::AuditEvent event =
      reused ? std::move(*reused) : audit_event_of(request, response, access, received, done);
  event.stage_time = done;
  const Status recorded =
      outbox != nullptr ? outbox->record(scope, std::move(event)) : log.record(std::move(event));
  if (recorded.ok()) return;
  response = HttpResponse{};
  send_error(response, 503, "audit_unavailable",
             "the audit log could not record this request, so it is not acknowledged (the "
             "change may have been applied): " +
                 recorded.message());
}

}  // namespace allot::server
