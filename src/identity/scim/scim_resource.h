// A client's User or Group body checked against the schema (RFC 7643) and put
// in canonical form, as the directory stores it: what POST, PUT and every
// PATCH result go through.
//
// Contract: attribute names take the schema's spelling ("USERNAME" becomes
// "userName"); the enterprise extension lives under its URN key; booleans
// sent as strings ("False", "true", any case) become JSON booleans; a scalar
// given for a complex attribute with a "value" sub-attribute becomes
// {"value": scalar} (Entra sends manager as a bare id), and one given for a
// multi-valued attribute becomes a one-value array. Dropped, as RFC 7644
// section 3.3 allows: read-only attributes (id, meta, groups: the directory
// sets them), attributes and sub-attributes outside the schema, nulls and
// empty values (unassigned). "schemas" is recomputed. The password (write-only,
// returned never) is taken out of the resource and handed back on its own.
// Errors are kInvalidArgument with scimType invalidValue (a wrong type, a
// missing userName or displayName) or invalidSyntax (not an object, nested
// deeper than kMaxValueDepth), with
// the attribute's path in the details. Pure, thread-safe.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "identity/scim/scim_schema.h"

namespace allot::scim {

// How deeply a resource or a PATCH body may nest arrays and objects: SCIM
// needs 6 ({"Operations":[{"value":{"members":[{"value":..}]}}]}); the limit
// keeps recursive copies of what a client sent shallow.
inline constexpr int kMaxValueDepth = 16;

// Whether `value` nests deeper than `limit` (a scalar is 0, {} and [] are 1).
bool nested_deeper_than(const nlohmann::json& value, int limit);

struct NormalizedResource {
  nlohmann::json resource;              // no id, no meta, no password
  std::optional<std::string> password;  // the cleartext the client sent, if any
};

Result<NormalizedResource> normalize_resource(ResourceKind kind, const nlohmann::json& body);

// invalidValue when a User's userName or a Group's displayName starts with
// "system:", a name of allot's own (model/principal.h): a group
// "system:admins" would make its members cluster administrators. Checked on
// every write (POST, PUT, PATCH), not on load: a directory stored before the
// rule loads, and its such names grant nothing (AccessControl skips them).
Status check_not_reserved(ResourceKind kind, const nlohmann::json& resource);

}  // namespace allot::scim
