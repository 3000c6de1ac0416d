// Fuzz target: SCIM filters and PATCH paths (identity/scim/scim_filter.h), as
// GET /scim/v2/Users?filter=... and PATCH "path" bring them. A filter that
// parses is written back to text that parses to the same tree, and evaluates
// the same against a user and a group; an error names its scimType and its
// SCIM error body can be written (valid UTF-8 whatever the input).
// Seeds: tests/fuzz/corpus/scim_filter, scim_filter.dict.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_expect.h"
#include "identity/scim/scim_error.h"
#include "identity/scim/scim_filter.h"

namespace {

using allot::fuzz::fuzz_expect;
using nlohmann::json;

const json& user() {
  static const json resource = json::parse(R"({
    "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"], "id": "u1",
    "userName": "ana@x.org", "name": {"givenName": "Ana"}, "active": true, "loginCount": 3,
    "emails": [{"value": "ana@x.org", "type": "work", "primary": true}, {"value": "a@y.org"}],
    "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {"department": "R&D"},
    "meta": {"lastModified": "2025-01-01T00:00:00.000Z"}})");
  return resource;
}

const json& group() {
  static const json resource = json::parse(R"({"id": "g1", "displayName": "Research",
    "members": [{"value": "u1", "type": "User"}]})");
  return resource;
}

void check_error(const allot::Status& status, allot::scim::ScimType type, std::string_view text) {
  fuzz_expect(allot::scim::scim_type_of(status) == type, "an error carries its scimType", text);
  try {
    (void)allot::scim::scim_error_response(status).body.dump();
  } catch (const json::exception&) {
    allot::fuzz::fuzz_fail("a SCIM error body can be written", text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  // NOLINT
  using allot::scim::ResourceKind;
  const std::string_view text(reinterpret_cast<const char*>(data), size);  // NOLINT
  const allot::Result<allot::scim::FilterNode> filter = allot::scim::parse_filter(text);
  if (filter.ok()) {
    const std::string written = allot::scim::filter_to_string(*filter);
    const allot::Result<allot::scim::FilterNode> again = allot::scim::parse_filter(written);
    fuzz_expect(again.ok() && *again == *filter, "a written filter parses back the same", written);
    for (const auto& [resource, kind] :
         {std::pair{&user(), ResourceKind::kUser}, std::pair{&group(), ResourceKind::kGroup}}) {
      fuzz_expect(allot::scim::filter_matches(*filter, *resource, kind) ==
                      allot::scim::filter_matches(*again, *resource, kind),
                  "a written filter matches the same", written);
    }
  } else {
    check_error(filter.status(), allot::scim::ScimType::kInvalidFilter, text);
  }
  const allot::Result<allot::scim::PatchPath> path = allot::scim::parse_patch_path(text);
  if (!path.ok()) check_error(path.status(), allot::scim::ScimType::kInvalidPath, text);
  return 0;
}
