// Fuzz target: points in time from outside: RFC 3339 (api/rfc3339.h, the REST
// API's times), the Philly trace's dates (api/philly_trace.h) and the bounds
// of a trace window (api/trace_reader.h). An RFC 3339 time that parses is
// written back and parses to the same time (within years 0 to 9999).
// Seeds: tests/fuzz/corpus/timestamp, timestamp.dict.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "api/philly_trace.h"
#include "api/rfc3339.h"
#include "api/trace_reader.h"
#include "fuzz_expect.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  // NOLINT
  const std::string_view text(reinterpret_cast<const char*>(data), size);  // NOLINT
  (void)allot::parse_philly_time(text);
  (void)allot::parse_trace_time(text, allot::TraceFormat::kPhilly);
  (void)allot::parse_trace_time(text, allot::TraceFormat::kCsv);
  const allot::Result<allot::Timestamp> at = allot::parse_rfc3339(text);
  if (!at.ok()) return 0;
  const std::string written = allot::format_rfc3339(*at);
  const allot::Result<allot::Timestamp> again = allot::parse_rfc3339(written);
  if (!again.ok()) allot::fuzz::fuzz_fail("a written time parses", written);
  // format_rfc3339 clamps times outside years 0 to 9999; it writes the rest exactly.
  const allot::Result<allot::Timestamp> first = allot::parse_rfc3339("0000-01-01T00:00:00Z");
  const allot::Result<allot::Timestamp> last = allot::parse_rfc3339("9999-12-31T23:59:59.999Z");
  if (*at >= *first && *at <= *last) {
    allot::fuzz::fuzz_expect(*again == *at, "a written time parses back the same", written);
  }
  return 0;
}
