// SCIM 2.0 routes (scim_routes.h): each handler checks the SCIM token, then
// translates HTTP to one ScimService call and its answer back.
#include "server/scim_routes.h"

#include <array>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "service/identity/scim_request.h"

namespace allot::server {
namespace {

using json = nlohmann::json;

void send_scim(HttpResponse& res, int status, const json& body) {
  res.status = status;
  std::string text = body.dump(-1, ' ', false, json::error_handler_t::replace);
  text += '\n';
  res.set_content(std::move(text), kScimContentType);
}

void send_scim_error(HttpResponse& res, const Status& status) {
  const scim::ScimErrorResponse error = ScimService::error_response(status);
  send_scim(res, error.http_status, error.body);
  if (error.http_status == 401) res.set_header("WWW-Authenticate", "Bearer realm=\"allot-scim\"");
}

// The SCIM token's check; an answer is sent when it fails.
bool authorised(const ScimService& scim, const HttpRequest& req, HttpResponse& res) {
  const Status status = scim.authenticate(req.get_header_value("Authorization"));
  if (status.ok()) return true;
  send_scim_error(res, status);
  return false;
}

// A resource: 200 (201 for a creation) with its Location and ETag.
void send_resource(HttpResponse& res, int status, const json& resource) {
  send_scim(res, status, resource);
  const json meta = resource.value("meta", json::object());
  if (status == 201 && meta.contains("location") && meta["location"].is_string()) {
    res.set_header("Location", meta["location"].get<std::string>());
  }
  if (meta.contains("version") && meta["version"].is_string()) {
    res.set_header("ETag", meta["version"].get<std::string>());
  }
}

scim::ResourceKind kind_of(const HttpRequest& req) {
  // The route's pattern admits only Users and Groups.
  return scim_resource_kind(req.matches[1]).value_or(scim::ResourceKind::kUser);
}

void list_resources(const ScimService& scim, const HttpRequest& req, HttpResponse& res) {
  const ScimListParameters parameters{
      req.get_param_value("filter"), req.get_param_value("startIndex"),
      req.get_param_value("count"), req.get_param_value("attributes"),
      req.get_param_value("excludedAttributes")};
  const Result<scim::ListQuery> query = scim_list_query(parameters);
  if (!query.ok()) return send_scim_error(res, query.status());
  const Result<json> page = scim.list(kind_of(req), *query);
  if (!page.ok()) return send_scim_error(res, page.status());
  send_scim(res, 200, *page);
}

void get(const ScimService& scim, const HttpRequest& req, HttpResponse& res) {
  const Result<json> resource = scim.get(
      kind_of(req), req.matches[2],
      scim_selection(req.get_param_value("attributes"), req.get_param_value("excludedAttributes")));
  if (!resource.ok()) return send_scim_error(res, resource.status());
  send_resource(res, 200, *resource);
}

// POST, PUT and PATCH: the body, then the write.
enum class Write { kCreate, kReplace, kPatch };

void write(ScimService& scim, Write verb, const HttpRequest& req, HttpResponse& res) {
  const Result<json> body = parse_scim_body(req.body);
  if (!body.ok()) return send_scim_error(res, body.status());
  const scim::ResourceKind kind = kind_of(req);
  const Result<json> written = verb == Write::kCreate    ? scim.create(kind, *body)
                               : verb == Write::kReplace ? scim.replace(kind, req.matches[2], *body)
                                                         : scim.patch(kind, req.matches[2], *body);
  if (!written.ok()) return send_scim_error(res, written.status());
  send_resource(res, verb == Write::kCreate ? 201 : 200, *written);
}

void remove(ScimService& scim, const HttpRequest& req, HttpResponse& res) {
  const Status removed = scim.remove(kind_of(req), req.matches[2]);
  if (!removed.ok()) return send_scim_error(res, removed);
  res.status = 204;
}

void discovery(const ScimService& scim, const HttpRequest& req, HttpResponse& res) {
  const std::string& endpoint = req.matches[1];
  const bool one = req.matches.size() > 2;
  Result<json> document = json();
  if (endpoint == "ServiceProviderConfig") {
    document = scim.service_provider_config();
  } else if (endpoint == "ResourceTypes") {
    document = one ? scim.resource_type(req.matches[2]) : scim.resource_types();
  } else {
    document = one ? scim.schema(req.matches[2]) : scim.schemas();
  }
  if (!document.ok()) return send_scim_error(res, document.status());
  send_scim(res, 200, *document);
}

// Which methods a SCIM path takes; empty for a path that is no endpoint.
std::string allowed_methods(const std::vector<std::string>& segments) {
  if (segments.size() == 1 && scim_resource_kind(segments[0])) return "GET, POST";
  if (segments.size() == 2 && scim_resource_kind(segments[0])) return "GET, PUT, PATCH, DELETE";
  if (segments.size() == 1 && segments[0] == "ServiceProviderConfig") return "GET";
  if ((segments.size() == 1 || segments.size() == 2) &&
      (segments[0] == "ResourceTypes" || segments[0] == "Schemas")) {
    return "GET";
  }
  return "";
}

// What no route above took: 405 for a known endpoint, 404 otherwise, in SCIM's form.
void unmatched(const HttpRequest& req, HttpResponse& res) {
  const std::vector<std::string> segments(req.matches.begin() + 1, req.matches.end());
  const std::string allowed = allowed_methods(segments);
  if (allowed.empty()) {
    return send_scim(res, 404, scim_error_body(404, "no SCIM endpoint ", req.path));
  }
  send_scim(res, 405,
            scim_error_body(405, "this endpoint takes " + allowed + ", not ", req.method));
  res.set_header("Allow", allowed);
}

// Registers `handler` behind the SCIM token's check.
template <typename Handler>
void scim_route(Router& http, std::string_view method, const std::string& pattern,
                ScimService& scim, Handler handler) {
  http.add(method, std::string(kScimPrefix) + pattern,
           [&scim, handler](const HttpRequest& req, HttpResponse& res) {
             if (authorised(scim, req, res)) handler(scim, req, res);
           });
}

}  // namespace

bool is_scim_path(std::string_view path) {
  return path.starts_with(kScimPrefix) &&
         (path.size() == kScimPrefix.size() || path[kScimPrefix.size()] == '/');
}

void add_scim_routes(Router& http, ControlPlane& plane) {
  ScimService& scim = plane.scim();
  const std::string resources = "/(Users|Groups)";
  const std::string resource = resources + "/([^/]+)";
  scim_route(http, "GET", resources, scim, list_resources);
  scim_route(http, "POST", resources, scim, [](ScimService& s, const auto& req, auto& res) {
    write(s, Write::kCreate, req, res);
  });
  scim_route(http, "GET", resource, scim, get);
  scim_route(http, "PUT", resource, scim, [](ScimService& s, const auto& req, auto& res) {
    write(s, Write::kReplace, req, res);
  });
  scim_route(http, "PATCH", resource, scim,
             [](ScimService& s, const auto& req, auto& res) { write(s, Write::kPatch, req, res); });
  scim_route(http, "DELETE", resource, scim, remove);
  for (const std::string discovery_path : {"/(ServiceProviderConfig)", "/(ResourceTypes|Schemas)",
                                           "/(ResourceTypes|Schemas)/([^/]+)"}) {
    scim_route(http, "GET", discovery_path, scim, discovery);
  }
  // Everything else under /scim/v2, a few segments deep: SCIM's 404 or 405.
  std::string pattern;
  for (int depth = 0; depth <= 4; ++depth) {
    for (const char* method : {"GET", "POST", "PUT", "PATCH", "DELETE"}) {
      scim_route(http, method, pattern, scim,
                 [](const ScimService&, const HttpRequest& req, HttpResponse& res) {
                   unmatched(req, res);
                 });
    }
    pattern += "/([^/]+)";
  }
}

std::optional<HttpResponse> scim_refusal_before_body(const HttpRequest& head,
                                                     const ScimService& scim) {
  if (scim.enabled() && head.has_header("Authorization")) return std::nullopt;
  HttpResponse response;
  send_scim_error(response, scim.authenticate(""));
  return response;
}

}  // namespace allot::server
