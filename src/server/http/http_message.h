// HttpRequest and HttpResponse: the messages allotd's routes read and write,
// independent of the library that carries them (server/http/http_server.h).
//
// Contract: plain values. Header names compare case-insensitively (RFC 9110
// section 5.1); a request's `path` is percent-decoded and its `params` are
// the decoded query parameters (request_target.h); `matches` holds the
// router's capture groups, [0] the whole path. The accessors mirror what the
// routes used before (has_param, get_param_value, get_header_value,
// set_header, set_content) so that a route reads the same over any carrier.
// A response with `stream` set is a streaming answer (server-sent events):
// its header goes out with chunked transfer encoding and no body, then what
// the stream's writer writes, until it ends the stream, the client leaves or
// the server stops; the connection closes after it.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
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

// Writes a streaming answer's chunks (HttpStream). Thread-safe: write() and
// end() may be called from any thread and return at once; the chunks reach
// the client in the order written.
class StreamWriter {
 public:
  StreamWriter() = default;
  virtual ~StreamWriter() = default;
  StreamWriter(const StreamWriter&) = delete;
  StreamWriter& operator=(const StreamWriter&) = delete;

  // Queues `chunk`; false once the stream is over (ended, the client left,
  // the server stopped or the client reads too slowly): drop the writer.
  virtual bool write(std::string chunk) = 0;
  // Ends the stream: the last chunk, then the connection closes.
  virtual void end() = 0;
};

struct HttpStream {
  // Called once, on the event loop, after the header is sent (never when the
  // client left before): keep the writer to write later. Whatever `start`
  // holds is released when the connection closes.
  std::function<void(std::shared_ptr<StreamWriter>)> start;
  // Written when nothing else was written for this long (0: never), so that
  // proxies keep the connection and a client that left is noticed.
  std::chrono::milliseconds keepalive{0};
  std::string keepalive_chunk;
};

struct HttpResponse {
  int status = 200;
  HttpHeaders headers;
  std::string body;
  std::shared_ptr<HttpStream> stream;  // set: a streaming answer, `body` unused

  // Replaces every value of `name` with `value`.
  void set_header(std::string_view name, std::string value);
  [[nodiscard]] std::string get_header_value(std::string_view name) const;
  void set_content(std::string content, std::string_view content_type);
};

}  // namespace allot::server
