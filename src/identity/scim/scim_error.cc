#include "identity/scim/scim_error.h"

#include <array>
#include <utility>

namespace allot::scim {
namespace {

constexpr std::string_view kKeywordMarker = "scimType=";

constexpr std::array kAllTypes = {
    ScimType::kInvalidFilter, ScimType::kTooMany,       ScimType::kUniqueness,
    ScimType::kMutability,    ScimType::kInvalidSyntax, ScimType::kInvalidPath,
    ScimType::kNoTarget,      ScimType::kInvalidValue,  ScimType::kInvalidVers,
};

ErrorCode code_of(ScimType type) {
  switch (type) {
    case ScimType::kUniqueness: return ErrorCode::kAlreadyExists;
    case ScimType::kInvalidVers: return ErrorCode::kFailedPrecondition;
    default: return ErrorCode::kInvalidArgument;
  }
}

int http_status_of(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument:
    case ErrorCode::kOutOfRange: return 400;
    case ErrorCode::kUnauthenticated: return 401;
    case ErrorCode::kPermissionDenied: return 403;
    case ErrorCode::kNotFound: return 404;
    case ErrorCode::kAlreadyExists: return 409;
    case ErrorCode::kFailedPrecondition: return 412;
    case ErrorCode::kResourceExhausted: return 413;
    case ErrorCode::kUnavailable: return 503;
    default: return 500;
  }
}

// Every byte outside printable ASCII as \xNN; at most
// `max_bytes` bytes of `text`, then "...".
std::string printable(std::string_view text, size_t max_bytes) {
  constexpr std::string_view kHex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < text.size() && i < max_bytes; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      out += static_cast<char>(byte);
    } else {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    }
  }
  if (text.size() > max_bytes) out += "...";
  return out;
}

}  // namespace

std::string_view scim_type_name(ScimType type) {
  switch (type) {
    case ScimType::kInvalidFilter: return "invalidFilter";
    case ScimType::kTooMany: return "tooMany";
    case ScimType::kUniqueness: return "uniqueness";
    case ScimType::kMutability: return "mutability";
    case ScimType::kInvalidSyntax: return "invalidSyntax";
    case ScimType::kInvalidPath: return "invalidPath";
    case ScimType::kNoTarget: return "noTarget";
    case ScimType::kInvalidValue: return "invalidValue";
    case ScimType::kInvalidVers: return "invalidVers";
  }
  return "invalidValue";
}

Status scim_error(ScimType type, std::string message, std::string_view where) {
  std::string details(kKeywordMarker);
  details += scim_type_name(type);
  if (!where.empty()) {
    details += "; ";
    details += where;
  }
  return {code_of(type), std::move(message), std::move(details)};
}

std::optional<ScimType> scim_type_of(const Status& status) {
  const std::string& details = status.details();
  const size_t at = details.find(kKeywordMarker);
  if (at == std::string::npos) return std::nullopt;
  const std::string_view rest = std::string_view(details).substr(at + kKeywordMarker.size());
  for (ScimType type : kAllTypes) {
    const std::string_view name = scim_type_name(type);
    if (rest.substr(0, name.size()) == name &&
        (rest.size() == name.size() || rest[name.size()] == ';')) {
      return type;
    }
  }
  return std::nullopt;
}

std::string scim_error_location(const Status& status) {
  const std::string& details = status.details();
  const size_t at = details.find(kKeywordMarker);
  if (at == std::string::npos) return details;
  const size_t separator = details.find("; ", at);
  std::string location = details.substr(0, at);
  if (separator != std::string::npos) location += details.substr(separator + 2);
  return location;
}

std::string quote_input(std::string_view text) {
  constexpr size_t kMaxQuoted = 64;
  return "\"" + printable(text, kMaxQuoted) + "\"";
}

ScimErrorResponse scim_error_response(const Status& status) {
  ScimErrorResponse response;
  response.http_status = http_status_of(status.code());
  response.body = {{"schemas", {kErrorSchema}}, {"status", std::to_string(response.http_status)}};
  if (const std::optional<ScimType> type = scim_type_of(status)) {
    response.body["scimType"] = scim_type_name(*type);
  }
  std::string detail = status.message();
  const std::string location = scim_error_location(status);
  if (!location.empty()) detail += " (at " + location + ")";
  // The message and location may hold a client's bytes: keep the body valid UTF-8.
  constexpr size_t kMaxDetail = 1024;
  response.body["detail"] = printable(detail, kMaxDetail);
  return response;
}

}  // namespace allot::scim
