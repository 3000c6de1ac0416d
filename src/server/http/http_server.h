// HttpServer: allotd's HTTP/1.1 listener, an event loop (Boost.Beast over
// Boost.Asio) with a separate pool of worker threads for the handlers.
//
// Why Beast/Asio: cpp-httplib gives each connection a thread for its whole
// life, so 70 clients sending a header byte a second stalled every request
// (issue 10, item 11). Of what Debian packages, Beast keeps connections on a
// few event-loop threads with per-phase timeouts and exact header, body and
// URL limits, reads pipelined requests in order, and brings TLS through
// OpenSSL (asio::ssl) and streaming responses for the watch and log streams;
// libmicrohttpd has TLS only through GnuTLS and runs handlers on its loop
// threads, and RESTinio is a thinner layer over the same Asio.
//
// Contract:
// - An idle or slow connection holds no worker thread: the `io_threads`
//   event-loop threads wait for connections to become readable. A plain
//   connection that is readable goes to one of `worker_threads`, which reads
//   without waiting what the socket holds and, when the request is whole
//   (the usual case), runs the handler and writes what the socket takes of
//   the answer at once; the loop reads the rest of a request that arrives in
//   pieces (under the header and body timeouts) and writes the rest of an
//   answer, and does all of it for TLS. An idle connection holds a socket and
//   a timer, no buffer.
// - Timeouts, each closing the connection: `idle_timeout` between requests,
//   `header_timeout` from a request's first byte to the end of its header,
//   `body_timeout` for its body, `write_timeout` for the answer.
// - Limits, each answered with the JSON error body (server/http_responses.h)
//   and then the connection closed: a header over `max_header_bytes` or
//   with more than `max_header_fields` fields is 431, a request-target over
//   `max_target_bytes` 414, a declared or chunked body over
//   `max_body_bytes` 413 (a declared one before any of it is read), bad
//   framing (Content-Length: -1, two lengths, a bad chunk) or a bad target
//   400. More than `max_connections` open connections: the newest is closed.
// - `refuse_before_body` sees each request's method, target, path, query
//   and headers before its body is read; an answer it gives is sent and the
//   connection closed. `Expect: 100-continue` is answered after it passes.
// - A streaming answer (HttpResponse::stream, http_message.h): the header
//   with chunked encoding, then the writer's chunks, written by the event
//   loop (no worker waits on it) without a write timeout; the stream's
//   keepalive chunk after each quiet `keepalive`; more than 256 chunks
//   queued for a slow reader, or any byte or EOF from the client, closes
//   it; the connection closes after the stream. stop() closes streams too.
// - Requests of one connection are answered in the order they were sent,
//   pipelined ones included; `Connection: close` and HTTP/1.0 without
//   keep-alive are honoured; HEAD gets the GET answer's headers only.
// - With `tls_cert_file` and `tls_key_file`, every connection is TLS 1.2 or
//   newer (the handshake within `header_timeout`); bind() answers
//   invalid_argument naming --tls-cert or --tls-key when a file cannot be
//   read or the key does not match the certificate.
// - bind() listens (port 0 picks a free one) and returns the port; serve()
//   runs the event loop until stop(), which may be called from any thread:
//   it stops accepting, lets running handlers finish, and closes the
//   connections. Handlers must not throw (Router guards them).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "base/result.h"
#include "server/http/http_message.h"

namespace allot::server {

struct HttpServerOptions {
  size_t io_threads = 2;
  size_t worker_threads = 64;
  size_t max_connections = 20000;
  size_t max_body_bytes = size_t{4} << 20;
  size_t max_header_bytes = size_t{64} << 10;
  size_t max_header_fields = 100;
  size_t max_target_bytes = size_t{8} << 10;
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(120)};
  std::chrono::milliseconds header_timeout{std::chrono::seconds(10)};
  std::chrono::milliseconds body_timeout{std::chrono::seconds(30)};
  std::chrono::milliseconds write_timeout{std::chrono::seconds(30)};
  // TLS (OpenSSL): PEM files of the certificate chain and its private key;
  // both empty for plain HTTP.
  std::string tls_cert_file;
  std::string tls_key_file;
};

struct HttpService {
  // Before the body: an answer here refuses the request (nullopt: go on).
  std::function<std::optional<HttpResponse>(const HttpRequest&)> refuse_before_body;
  // The whole request; runs on a worker thread. Fills the response.
  std::function<void(HttpRequest&, HttpResponse&)> handle;
};

class HttpServer {
 public:
  HttpServer(HttpServerOptions options, HttpService service);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // kUnavailable naming --listen when the address cannot be bound.
  Result<int> bind(const std::string& host, int port);
  void serve();
  void stop();

  struct Loop;  // the Asio state (http_server.cc)

 private:
  std::unique_ptr<Loop> loop_;
};

}  // namespace allot::server
