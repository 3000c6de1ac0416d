// SafeModeServer: what allotd serves when its stored state cannot be loaded
// (a stored policy that no longer validates, a record that does not decode).
// It stays up, so that a supervisor does not restart it into a crash loop,
// and it says why, so that an operator can repair the data folder.
//
// Contract: GET /healthz is 200 (the process is alive); GET /readyz is 503
// with {"status": "safe mode", "reason": ...}; every other request is 503
// `unavailable`, its message saying that allotd is in safe mode and its
// details the reason. Nothing is read from or written to the store. bind(),
// serve() and stop() as ApiServer's.
#pragma once

#include <cstddef>
#include <string>

#include "base/result.h"
#include "server/http/http_server.h"
#include "server/http/router.h"

namespace allot::server {

class SafeModeServer {
 public:
  SafeModeServer(std::string reason, size_t threads);
  SafeModeServer(const SafeModeServer&) = delete;
  SafeModeServer& operator=(const SafeModeServer&) = delete;

  Result<int> bind(const std::string& host, int port);
  void serve();
  void stop();

 private:
  HttpService service() const;

  std::string reason_;
  Router router_;
  HttpServer http_;
};

}  // namespace allot::server
