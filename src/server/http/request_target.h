// The request-target of an HTTP request (RFC 9112 section 3.2) split into its
// decoded path and query parameters, with Boost.URL doing the RFC 3986
// parsing and percent-decoding.
//
// Contract: parse_request_target() accepts the origin form ("/path?query")
// and the absolute form ("http://host/path?query", which proxies send) and
// returns the percent-decoded path and the query's parameters in their
// order, each key and value decoded with '+' read as a space (HTML forms, as
// curl --data-urlencode -G sends them); a parameter without '=' has the
// value "". Anything else (no leading '/', bad percent escapes, an
// authority form, more than kMaxQueryParameters parameters) is an
// invalid_argument Status that quotes at most the first 100 bytes of the
// target. Pure; never throws on input (the fuzz target checks it).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace allot::server {

inline constexpr size_t kMaxQueryParameters = 64;

struct RequestTarget {
  std::string path;
  std::vector<std::pair<std::string, std::string>> params;
};

Result<RequestTarget> parse_request_target(std::string_view target);

}  // namespace allot::server
