// Fuzz target: SCIM PATCH bodies (identity/scim/scim_patch.h) applied to a
// user and a group of a ScimDirectory, as PATCH /scim/v2/Users/{id} brings
// them. A patch that succeeds leaves a resource that normalizes to itself and
// a directory whose state reads back the same; one that fails leaves the
// resource unchanged, with a scimType and a writable error body.
// Seeds: tests/fuzz/corpus/scim_patch, scim_patch.dict.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_expect.h"
#include "identity/scim/scim_directory.h"
#include "identity/scim/scim_error.h"
#include "identity/scim/scim_resource.h"

namespace {

using allot::fuzz::fuzz_expect;
using allot::scim::ResourceKind;
using nlohmann::json;

class Ids final : public allot::scim::IdGenerator {
 public:
  std::string next_id() override { return "id" + std::to_string(++count_); }

 private:
  int count_ = 0;
};

bool writable(const json& value) {
  try {
    (void)value.dump();
    return true;
  } catch (const json::exception&) {
    return false;
  }
}

void patch_one(allot::scim::ScimDirectory& directory, ResourceKind kind, const std::string& id,
               const json& request, std::string_view text) {
  const json before = directory.get(kind, id).value();
  const std::vector<allot::scim::StoredResource> records = directory.records();
  const allot::Timestamp now = allot::Timestamp::from_millis(1'000'000);
  allot::Result<allot::scim::WriteResult> result = directory.patch(kind, id, request, now);
  if (result.ok()) {
    directory.revert(result->change);
    fuzz_expect(directory.records() == records, "a reverted patch leaves what was there", text);
    result = directory.patch(kind, id, request, now);
    fuzz_expect(result.ok(), "a reverted patch applies again", text);
  }
  if (!result.ok()) {
    fuzz_expect(directory.get(kind, id).value() == before, "a failed patch changes nothing", text);
    fuzz_expect(allot::scim::scim_type_of(result.status()).has_value(),
                "a failed patch says its scimType", text);
    fuzz_expect(writable(allot::scim::scim_error_response(result.status()).body),
                "a SCIM error body can be written", text);
    return;
  }
  fuzz_expect(writable(result->resource), "a patched resource can be written", text);
  const allot::Result<allot::scim::NormalizedResource> again =
      allot::scim::normalize_resource(kind, result->resource);
  fuzz_expect(again.ok(), "a patched resource is valid", text);
  json without_server_attributes = result->resource;
  for (const char* name : {"id", "meta", "groups"}) without_server_attributes.erase(name);
  fuzz_expect(again->resource == without_server_attributes, "a patched resource is normal", text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  // NOLINT
  const std::string_view text(reinterpret_cast<const char*>(data), size);  // NOLINT
  const json request = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (request.is_discarded()) return 0;
  Ids ids;
  allot::scim::ScimDirectory directory(ids);
  const allot::Timestamp t0 = allot::Timestamp::from_millis(0);
  const std::string user = directory
                               .create(ResourceKind::kUser, json::parse(R"({"userName": "ana@x.org",
        "name": {"givenName": "Ana", "familyName": "Lima"}, "active": true,
        "emails": [{"value": "ana@x.org", "type": "work", "primary": true}],
        "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {"department": "R&D"}})"),
                                       t0)
                               .value()
                               .resource["id"];
  const std::string other =
      directory.create(ResourceKind::kUser, json{{"userName", "bo@x.org"}}, t0)
          .value()
          .resource["id"];
  const std::string group = directory
                                .create(ResourceKind::kGroup,
                                        json{{"displayName", "Research"},
                                             {"members", {{{"value", user}}, {{"value", other}}}}},
                                        t0)
                                .value()
                                .resource["id"];
  patch_one(directory, ResourceKind::kUser, user, request, text);
  patch_one(directory, ResourceKind::kGroup, group, request, text);
  const std::vector<allot::scim::StoredResource> records = directory.records();
  const allot::Result<allot::scim::ScimDirectory> loaded =
      allot::scim::ScimDirectory::from_records(records, ids);
  fuzz_expect(loaded.ok() && loaded->records() == records,
              "the directory's records read back the same", text);
  return 0;
}
