// Fuzz target: manifests in JSON (a body that opens with '{' or '['; one
// object, an array or a List), decoded by api/manifest_parser.h through
// parse_json_unique_keys (json_unique_keys.h, repeated keys refused), with
// the properties of manifest_round_trip.h. The same text also goes to
// workload_from_json, the decoder of a stored workload (api/workload_json.h).
// Seeds: tests/fuzz/corpus/manifest_json, manifest.dict.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "api/json_unique_keys.h"
#include "api/workload_json.h"
#include "manifest_round_trip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  // NOLINT
  const std::string_view text(reinterpret_cast<const char*>(data), size);  // NOLINT
  allot::fuzz::check_manifest_batch(text);
  const allot::UniqueKeysJson json = allot::parse_json_unique_keys(text);
  if (!json.value.is_discarded()) (void)allot::workload_from_json(json.value);
  return 0;
}
