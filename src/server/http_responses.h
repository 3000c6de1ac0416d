// HTTP answers of allotd: JSON bodies and the error mapping of docs/api.md.
//
// Contract: every error answer has the JSON body {code, message, details}
// and the HTTP status of its code (invalid_argument 400, not_found 404,
// already_exists and failed_precondition 409, resource_exhausted 413,
// unavailable 503, everything else 500). Stateless. The answers of the HTTP
// layer itself (414, 431, 405) use the second send_error.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "server/http/http_message.h"

namespace allot::server {

int http_status_for(ErrorCode code);

void send_json(HttpResponse& res, int status, const nlohmann::json& body);
void send_raw_json(HttpResponse& res, int status, std::string body);
// REQUIRES: !status.ok().
void send_error(HttpResponse& res, const Status& status);
// An error whose code has no ErrorCode (415 unsupported_media_type).
void send_error(HttpResponse& res, int http_status, std::string_view code, std::string message,
                std::string details = {});

// Checks that the body is YAML or JSON; otherwise answers 415 and returns false.
bool accept_manifest_body(const HttpRequest& req, HttpResponse& res);

}  // namespace allot::server
