// Fuzz target: HTTP request targets (server/http/request_target.h), the
// path and query string of every request allotd reads. One that parses has
// a path that starts with '/' and at most kMaxQueryParameters parameters.
// Seeds: tests/fuzz/corpus/request_target.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_expect.h"
#include "server/http/request_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  // NOLINT
  using allot::fuzz::fuzz_expect;
  const std::string_view text(reinterpret_cast<const char*>(data), size);  // NOLINT
  const allot::Result<allot::server::RequestTarget> target =
      allot::server::parse_request_target(text);
  if (!target.ok()) return 0;
  fuzz_expect(target->path.starts_with('/'), "a parsed path starts with '/'", text);
  fuzz_expect(target->params.size() <= allot::server::kMaxQueryParameters,
              "at most kMaxQueryParameters parameters", text);
  return 0;
}
