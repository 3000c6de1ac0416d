// ApiServer: allotd's HTTP edge (docs/api.md) over cpp-httplib.
//
// Contract: bind() opens the listening socket (port 0 picks a free one) and
// returns the port; serve() answers requests on a pool of worker threads
// until stop() (from any thread). Bodies above max_body_bytes are refused
// with 413 and the JSON error body; unknown routes are 404 with it; nothing a
// client sends ends the process.
#pragma once

#include <cstddef>
#include <string>

#include <httplib.h>

#include "base/result.h"
#include "service/control/control_plane.h"

namespace allot::server {

struct ApiServerOptions {
  size_t max_body_bytes = size_t{4} << 20;
  // Worker threads: each keeps one client connection (keep-alive) at a time.
  size_t threads = 64;
};

// httplib::Server whose listening socket takes a burst of new connections:
// cpp-httplib 0.11 listens with a backlog of 5, and connections beyond it
// (32 clients connecting at once) stall for a second or fail to read an answer.
class HttpServer final : public httplib::Server {
 public:
  // listen() again on the bound socket with `backlog`; false if it fails.
  bool set_listen_backlog(int backlog);
  // Binds host:port (port 0 picks a free one) with a backlog of SOMAXCONN;
  // the port, or kUnavailable naming --listen.
  Result<int> bind_listener(const std::string& host, int port);
};

class ApiServer {
 public:
  ApiServer(ControlPlane& plane, ApiServerOptions options);
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;

  Result<int> bind(const std::string& host, int port);
  void serve();
  void stop();

 private:
  HttpServer http_;
  ApiServerOptions options_;
};

}  // namespace allot::server
