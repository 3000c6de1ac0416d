// Request framing: what allotd refuses from a request's header, before its
// body is read (HttpService::refuse_before_body, server/http/http_server.h).
// The header, target and body size limits themselves are the HTTP layer's.
//
// Contract: framing_refusal() answers the refusal of a request whose framing
// allotd does not accept, or nothing:
// - a compressed body (any Content-Encoding but identity) is 415: a small
//   gzip body inflates without bound (24 KB became a 24 MB workload), and
//   manifests are small enough to send as they are;
// - a multipart body (Content-Type multipart/*) is 415.
// Chunked bodies are accepted: the body limit counts their decoded bytes as
// they arrive. Pure: it reads the request's headers only.
#pragma once

#include <optional>
#include <string>

#include "server/http/http_message.h"

namespace allot::server {

struct FramingRefusal {
  int http_status = 400;
  std::string code;  // the error code of the JSON error body
  std::string message;
};

std::optional<FramingRefusal> framing_refusal(const HttpRequest& req);

}  // namespace allot::server
