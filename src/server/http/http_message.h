// HttpRequest and HttpResponse: the messages allotd's routes read and write,
// independent of the library that carries them (server/http/http_server.h).
//
// Contract: plain values. Header names compare case-insensitively (RFC 9110
// section 5.1); a request's `path` is percent-decoded and its `params` are
// the decoded query parameters (request_target.h); `matches` holds the
// router's capture groups, [0] the whole path. The accessors mirror what the
// routes used before (has_param, get_param_value, get_header_value,
// set_header, set_content) so that a route reads the same over any carrier.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/principal.h"

namespace allot::server {

struct CaseInsensitiveLess {
  bool operator()(std::string_view a, std::string_view b) const;
  using is_transparent = void;  // NOLINT(readability-identifier-naming): the standard's name
};

using HttpHeaders = std::multimap<std::string, std::string, CaseInsensitiveLess>;

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string target;  // as sent: path and query, percent-encoded
  std::string path;    // decoded
  std::multimap<std::string, std::string> params;
  HttpHeaders headers;
  std::string body;
  std::vector<std::string> matches;
  std::string remote_address;  // the peer's IP address, for logs and rate limits
  // Who sent it, once the API server authenticated it (server/api_server.h);
  // empty before and on the routes that need no login.
  std::optional<Principal> caller;

  [[nodiscard]] bool has_param(std::string_view name) const;
  // The first value of `name`, or "" when absent.
  [[nodiscard]] std::string get_param_value(std::string_view name) const;
  [[nodiscard]] bool has_header(std::string_view name) const;
  // The first value of `name`, or "" when absent.
  [[nodiscard]] std::string get_header_value(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  HttpHeaders headers;
  std::string body;

  // Replaces every value of `name` with `value`.
  void set_header(std::string_view name, std::string value);
  [[nodiscard]] std::string get_header_value(std::string_view name) const;
  void set_content(std::string content, std::string_view content_type);
};

}  // namespace allot::server
