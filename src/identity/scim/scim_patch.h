// SCIM PATCH (RFC 7644 section 3.5.2): a PatchOp request body applied to a
// stored User or Group, in the forms Microsoft Entra ID and Okta send.
//
// Accepted: "op" in any case ("Add", "replace", "REMOVE"); a "path" that is
// an attribute ("active", "name.givenName", an enterprise URN-prefixed name,
// the enterprise extension as a whole) or a value path
// (`emails[type eq "work"].value`, `members[value eq "id"]`); no path with
// add/replace, where the value's keys are themselves paths
// (`{"name.givenName": "Ana", "urn:...:User:department": "R&D", "active":
// false}`); booleans sent as strings ("False"). Group members are removed by
// `{"op":"remove","path":"members","value":[{"value":"id"}]}`, by
// `members[value eq "id"]`, or replaced whole.
//
// Semantics (section 3.5.2): add appends to a multi-valued attribute (a
// value whose "value" is already there is merged into it, not duplicated)
// and merges into a complex one; replace sets a multi-valued attribute whole
// and merges into a complex one; remove unassigns, or removes the values the
// filter (or the request's value list) selects; removing what is not there
// is not an error. add or replace through a value path that selects nothing,
// when the filter is `a eq v [and b eq w ...]`, creates the value
// ({"type":"work","value":...}): Entra sends `emails[type eq "work"].value`
// for a user without a work email. id, meta and a User's groups are
// read-only: changing them is refused (mutability), sending their current
// value is accepted and ignored (Okta repeats the id in a group rename).
//
// Contract: all operations apply to a copy, and the result is checked with
// normalize_resource(); on any error nothing is returned, so the caller's
// resource is unchanged (atomic). Errors: kInvalidArgument with scimType
// invalidSyntax (not a PatchOp body, unknown op), invalidPath (a path that
// does not parse or names no attribute), noTarget (remove without path, a
// value path that selects nothing where something is required), invalidValue
// (a value of the wrong type) or mutability; the details name the operation
// ("Operations[1]"). No exception escapes. Pure, thread-safe.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "identity/scim/scim_schema.h"

namespace allot::scim {

inline constexpr std::string_view kPatchOpSchema = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

struct PatchResult {
  // Normalized (scim_resource.h), with the input's id and meta unchanged:
  // the caller updates meta.
  nlohmann::json resource;
  std::optional<std::string> password;  // a password the patch set, to be hashed
};

// REQUIRES: `resource` is a normalized resource of `kind` (with id and meta).
Result<PatchResult> apply_patch(ResourceKind kind, const nlohmann::json& resource,
                                const nlohmann::json& request);

}  // namespace allot::scim
