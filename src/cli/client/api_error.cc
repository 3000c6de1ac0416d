#include "cli/client/api_error.h"

#include <array>
#include <utility>

#include <nlohmann/json.hpp>

namespace allot::cli {
namespace {

constexpr std::array<std::pair<std::string_view, ErrorCode>, 11> kApiCodes = {{
    {"invalid_argument", ErrorCode::kInvalidArgument},
    {"not_found", ErrorCode::kNotFound},
    {"already_exists", ErrorCode::kAlreadyExists},
    {"failed_precondition", ErrorCode::kFailedPrecondition},
    {"out_of_range", ErrorCode::kOutOfRange},
    {"permission_denied", ErrorCode::kPermissionDenied},
    {"unauthenticated", ErrorCode::kUnauthenticated},
    {"resource_exhausted", ErrorCode::kResourceExhausted},
    {"unsupported_media_type", ErrorCode::kInvalidArgument},
    {"unavailable", ErrorCode::kUnavailable},
    {"internal", ErrorCode::kInternal},
}};

// A body that is not allotd's JSON error, cut to one readable line.
std::string body_excerpt(const std::string& body) {
  constexpr size_t kMaxLength = 200;
  std::string line = body.substr(0, body.find('\n'));
  if (line.size() > kMaxLength) {
    line = line.substr(0, kMaxLength) + "...";
  }
  return line;
}

std::string string_field(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::optional<ErrorCode> error_code_from_api_name(std::string_view name) {
  for (const auto& [api_name, code] : kApiCodes) {
    if (api_name == name) return code;
  }
  return std::nullopt;
}

ErrorCode error_code_from_http_status(int http_status) {
  switch (http_status) {
    case 401: return ErrorCode::kUnauthenticated;
    case 403: return ErrorCode::kPermissionDenied;
    case 404: return ErrorCode::kNotFound;
    case 409: return ErrorCode::kFailedPrecondition;
    case 413:
    case 429: return ErrorCode::kResourceExhausted;
    case 502:
    case 503:
    case 504: return ErrorCode::kUnavailable;
    default:
      return http_status >= 400 && http_status < 500 ? ErrorCode::kInvalidArgument
                                                     : ErrorCode::kInternal;
  }
}

Status status_from_error_answer(int http_status, const std::string& body) {
  const nlohmann::json parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_object()) {
    const std::string code_name = string_field(parsed, "code");
    const std::string message = string_field(parsed, "message");
    if (!code_name.empty() || !message.empty()) {
      const ErrorCode code =
          error_code_from_api_name(code_name).value_or(error_code_from_http_status(http_status));
      return {code, message.empty() ? code_name : message, string_field(parsed, "details")};
    }
  }
  std::string message = "allotd answered HTTP " + std::to_string(http_status);
  const std::string excerpt = body_excerpt(body);
  if (!excerpt.empty()) {
    message += ": " + excerpt;
  }
  return {error_code_from_http_status(http_status), message};
}

}  // namespace allot::cli
