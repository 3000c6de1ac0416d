// Fuzz target: durations (base/time.h: "1h30m", "250ms", a bare number of
// seconds), as manifests, scenarios and the CLI write them. A duration that
// parses is within 0..Duration::max() and its text parses back the same.
// Seeds: tests/fuzz/corpus/duration, duration.dict.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/time.h"
#include "fuzz_expect.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  // NOLINT
  using allot::fuzz::fuzz_expect;
  const std::string_view text(reinterpret_cast<const char*>(data), size);  // NOLINT
  const allot::Result<allot::Duration> duration = allot::parse_duration(text);
  if (!duration.ok()) return 0;
  fuzz_expect(duration->ms() >= 0 && *duration <= allot::Duration::max(), "a duration is in range",
              text);
  const std::string written = duration->to_string();
  const allot::Result<allot::Duration> again = allot::parse_duration(written);
  fuzz_expect(again.ok() && *again == *duration, "a written duration parses back the same",
              written);
  return 0;
}
