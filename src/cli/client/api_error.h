// ApiError: allotd's error answers turned back into Status values.
//
// Contract: allotd answers every error with a JSON body {"code", "message",
// "details"} (docs/api.md, "Errors"). status_from_error_answer() maps the
// code names back to ErrorCode (unsupported_media_type becomes
// kInvalidArgument); a body that is not such an object (a proxy's HTML page,
// an empty body) falls back to the HTTP status, with the start of the body as
// the message. Pure functions, no I/O.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"

namespace allot::cli {

// The ErrorCode named by an API error code ("not_found"), or nullopt when the
// name is unknown.
std::optional<ErrorCode> error_code_from_api_name(std::string_view name);

// The ErrorCode that an HTTP status implies when the body says nothing; a
// status below 400 (a redirect, say) that is not a success is kInternal.
ErrorCode error_code_from_http_status(int http_status);

// The Status of an answer whose HTTP status is not 2xx.
Status status_from_error_answer(int http_status, const std::string& body);

}  // namespace allot::cli
