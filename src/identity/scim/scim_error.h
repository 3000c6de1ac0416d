// SCIM errors (RFC 7644 section 3.12): the scimType keywords, the Status that
// carries one, and the error body and HTTP status a server answers with.
//
// Contract: a SCIM error travels as an ordinary Status whose details hold
// "scimType=<keyword>", then "; " and where the error is (a filter offset, an
// attribute path). Status::with_context() prefixes the details and keeps the
// keyword findable. scim_error_response() turns any Status into the body and
// HTTP status of section 3.12; it never fails. Pure functions, thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace allot::scim {

// The "scimType" keywords of RFC 7644 table 9 that this library produces.
enum class ScimType {
  kInvalidFilter,  // a filter that does not parse
  kTooMany,        // more results than the server will return
  kUniqueness,     // userName or a group's displayName already taken (409)
  kMutability,     // a write to a read-only attribute (id, meta, groups)
  kInvalidSyntax,  // a request body of the wrong shape (no Operations, unknown op)
  kInvalidPath,    // a PATCH path that does not parse or names no attribute
  kNoTarget,       // a PATCH path that selects nothing it can act on
  kInvalidValue,   // a value of the wrong type, or a required value missing
  kInvalidVers,    // a version precondition (If-Match) that does not hold
};

inline constexpr std::string_view kErrorSchema = "urn:ietf:params:scim:api:messages:2.0:Error";

// The keyword as RFC 7644 spells it ("invalidFilter").
std::string_view scim_type_name(ScimType type);

// A Status for `type`: kAlreadyExists for uniqueness, kFailedPrecondition for
// invalidVers, kInvalidArgument otherwise. `where` says where it broke.
Status scim_error(ScimType type, std::string message, std::string_view where = {});

// The keyword a Status carries, if any.
std::optional<ScimType> scim_type_of(const Status& status);

// What follows the keyword in the details ("offset 12", "emails[0].value").
std::string scim_error_location(const Status& status);

// `text` quoted for an error message: at most 64 bytes, every byte outside
// printable ASCII written as \xNN, so that a message is always valid UTF-8
// (nlohmann::json refuses to write anything else) whatever a client sent.
std::string quote_input(std::string_view text);

struct ScimErrorResponse {
  int http_status = 500;
  nlohmann::json body;  // {"schemas":[kErrorSchema],"status":"409","scimType":...,"detail":...}
};

// REQUIRES: !status.ok().
// 400 invalid argument, 401, 403, 404, 409 already exists, 412 failed
// precondition, 413 resource exhausted, 503 unavailable, 500 otherwise.
ScimErrorResponse scim_error_response(const Status& status);

}  // namespace allot::scim
