// Fuzz target: manifests in YAML, as `allot apply -f`, a submit and
// `allot simulate` send them (api/manifest_parser.h), through validation, the
// policy's compilation and the stored forms (manifest_round_trip.h).
// Seeds: tests/fuzz/corpus/manifest_yaml (the examples), manifest.dict.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "manifest_round_trip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  // NOLINT
  allot::fuzz::check_manifest_batch(
      std::string_view(reinterpret_cast<const char*>(data), size));  // NOLINT
  return 0;
}
