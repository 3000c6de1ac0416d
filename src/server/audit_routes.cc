// The audit log's routes (docs/api.md): GET /api/v1/audit and
// GET /api/v1/audit/key.
#include <charconv>
#include <string>

#include "api/rfc3339.h"
#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"
#include "service/audit/audit_reading.h"

namespace allot::server {
namespace {

constexpr size_t kMaxLimit = 10'000;

Result<std::optional<Timestamp>> time_param(const HttpRequest& req, const char* name) {
  if (!req.has_param(name)) return std::optional<Timestamp>();
  Result<Timestamp> at = parse_rfc3339(req.get_param_value(name));
  if (!at.ok()) return invalid_argument(at.status().message(), name);
  return std::optional<Timestamp>(*at);
}

Result<audit::AuditQuery> query_of(const HttpRequest& req) {
  audit::AuditQuery query;
  if (req.has_param("user")) query.user = req.get_param_value("user");
  if (req.has_param("verb")) query.verb = req.get_param_value("verb");
  if (req.has_param("namespace")) query.namespace_name = req.get_param_value("namespace");
  ALLOT_ASSIGN_OR_RETURN(query.since, time_param(req, "since"));
  ALLOT_ASSIGN_OR_RETURN(query.until, time_param(req, "until"));
  if (req.has_param("limit")) {
    const std::string text = req.get_param_value("limit");
    size_t limit = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), limit);
    if (error != std::errc() || end != text.data() + text.size() || limit == 0 ||
        limit > kMaxLimit) {
      return invalid_argument("limit must be a whole number from 1 to 10000", "limit");
    }
    query.limit = limit;
  }
  return query;
}

void list_audit(const AccessControl& access, audit::AuditLog& log, const HttpRequest& req,
                HttpResponse& res) {
  if (Status allowed = access.authorize(caller_of(req), "list", "auditevents", ""); !allowed.ok()) {
    return send_error(res, allowed);
  }
  const Result<audit::AuditQuery> query = query_of(req);
  if (!query.ok()) return send_error(res, query.status());
  // An answered request's record may wait for the log's writer thread: a
  // query right after the answer finds it.
  if (Status flushed = log.flush(); !flushed.ok()) return send_error(res, flushed);
  const Result<std::vector<std::string>> lines = audit::query_audit_log(log.options().dir, *query);
  if (!lines.ok()) return send_error(res, lines.status());
  // The records as written (each is a JSON object), in a Kubernetes EventList.
  std::string body = R"({"apiVersion":"audit.k8s.io/v1","kind":"EventList","items":[)";
  for (size_t i = 0; i < lines->size(); ++i) {
    if (i > 0) body += ',';
    body += (*lines)[i];
  }
  body += "]}";
  res.status = 200;
  res.set_content(std::move(body), "application/json");
}

void audit_disabled(HttpResponse& res) {
  send_error(res, 404, "audit_disabled", "this allotd keeps no audit log (--audit=off)");
}

}  // namespace

void add_audit_routes(Router& http, const AccessControl& access, audit::AuditLog* audit) {
  http.get("/api/v1/audit", [&access, audit](const HttpRequest& req, HttpResponse& res) {
    if (audit == nullptr) return audit_disabled(res);
    list_audit(access, *audit, req, res);
  });
  http.get("/api/v1/audit/key", [audit](const HttpRequest&, HttpResponse& res) {
    if (audit == nullptr) return audit_disabled(res);
    send_json(res, 200, {{"algorithm", "Ed25519"}, {"publicKey", audit->public_key_hex()}});
  });
}

}  // namespace allot::server
