// Fuzz target: job traces (api/trace_reader.h), each input read as a Philly
// trace and as a generic CSV trace (api/philly_trace.h, api/csv_trace.h, both
// on api/trace_csv.h), whole and through a window.
// Seeds: tests/fuzz/corpus/trace_csv, trace_csv.dict.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "api/trace_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  // NOLINT
  using allot::TraceFormat;
  const std::string_view text(reinterpret_cast<const char*>(data), size);  // NOLINT
  (void)allot::parse_trace(text, TraceFormat::kPhilly, "philly.csv");
  (void)allot::parse_trace(text, TraceFormat::kCsv, "jobs.csv");
  allot::TraceWindow window;
  window.from = allot::Timestamp::from_millis(1'000);
  window.to = allot::Timestamp::from_millis(1'506'816'000'000);
  (void)allot::parse_trace(text, TraceFormat::kCsv, "jobs.csv", window);
  (void)allot::parse_trace(text, TraceFormat::kPhilly, "philly.csv", window);
  return 0;
}
