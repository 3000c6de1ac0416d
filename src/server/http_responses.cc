#include "server/http_responses.h"

#include <utility>

#include "api/status_json.h"

namespace allot::server {

int http_status_for(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return 200;
    case ErrorCode::kInvalidArgument:
    case ErrorCode::kOutOfRange: return 400;
    case ErrorCode::kUnauthenticated: return 401;
    case ErrorCode::kPermissionDenied: return 403;
    case ErrorCode::kNotFound: return 404;
    case ErrorCode::kAlreadyExists:
    case ErrorCode::kFailedPrecondition: return 409;
    case ErrorCode::kResourceExhausted: return 413;
    case ErrorCode::kUnavailable: return 503;
    case ErrorCode::kInternal: return 500;
  }
  return 500;
}

void send_raw_json(HttpResponse& res, int status, std::string body) {
  res.status = status;
  body += '\n';
  // Moved in: a list can be megabytes.
  res.set_content(std::move(body), "application/json");
}

void send_json(HttpResponse& res, int status, const nlohmann::json& body) {
  // Stored text is checked UTF-8 (api/utf8.h), but an error may quote a path
  // of the URL: a bad byte there becomes U+FFFD rather than an exception.
  send_raw_json(res, status, body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void send_error(HttpResponse& res, const Status& status) {
  send_json(res, http_status_for(status.code()), status_to_json(status));
}

void send_error(HttpResponse& res, int http_status, std::string_view code, std::string message,
                std::string details) {
  send_json(res, http_status,
            {{"code", std::string(code)}, {"message", std::move(message)}, {"details", details}});
}

bool accept_manifest_body(const HttpRequest& req, HttpResponse& res) {
  std::string type = req.get_header_value("Content-Type");
  type = type.substr(0, type.find(';'));
  for (const char* accepted :
       {"application/yaml", "application/x-yaml", "text/yaml", "application/json"}) {
    if (type == accepted) return true;
  }
  send_error(res, 415, "unsupported_media_type",
             "Content-Type '" + type +
                 "' is not accepted; send YAML (application/yaml) or JSON (application/json)",
             "Content-Type");
  return false;
}

}  // namespace allot::server
