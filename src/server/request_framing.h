// Request framing: what allotd refuses before it reads a request's body, so
// that the body limit (ApiServerOptions::max_body_bytes) holds on every path.
//
// Contract: framing_refusal() answers the refusal of a request whose framing
// allotd does not accept, or nothing:
// - a compressed body (any Content-Encoding but identity) is 415: a small
//   gzip body inflates without bound (24 KB became a 24 MB workload), and
//   manifests are small enough to send as they are;
// - a body without a declared length (Transfer-Encoding: chunked) is 411:
//   Content-Length is what the limit is checked against before reading (a
//   chunked body of 100 MB was read);
// - a multipart body (Content-Type multipart/*) is 415, before the HTTP
//   library parses its parts;
// - more than kMaxHeaderFields header fields is 431.
// Pure: it reads the request's method and headers only.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <httplib.h>

namespace allot::server {

inline constexpr size_t kMaxHeaderFields = 100;

struct FramingRefusal {
  int http_status = 400;
  std::string code;  // the error code of the JSON error body
  std::string message;
};

std::optional<FramingRefusal> framing_refusal(const httplib::Request& req);

}  // namespace allot::server
