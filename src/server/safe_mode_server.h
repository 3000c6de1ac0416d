// SafeModeServer: what allotd serves while it cannot serve the API:
// - in safe mode, when its stored state cannot be loaded (a stored policy
//   that no longer validates, a record that does not decode). It stays up,
//   so that a supervisor does not restart it into a crash loop, and it says
//   why, so that an operator can repair the data folder;
// - as a standby, while another allotd leads the shared PostgreSQL store and
//   this one waits to take over (store/postgres/pg_leader_lock.h).
//
// Contract: GET /healthz is 200 (the process is alive); GET /readyz is 503
// with {"status": "safe mode" or "standby", "reason": ...}, so that a load
// balancer sends nothing here; every other request is 503 `unavailable`, its
// message saying which of the two and what to do, its details the reason.
// Nothing is read from or written to the store. bind(), serve() and stop()
// as ApiServer's.
#pragma once

#include <cstddef>
#include <string>

#include "base/result.h"
#include "server/http/http_server.h"
#include "server/http/router.h"

namespace allot::server {

enum class NotServingMode { kSafeMode, kStandby };

class SafeModeServer {
 public:
  SafeModeServer(std::string reason, size_t threads,
                 NotServingMode mode = NotServingMode::kSafeMode);
  SafeModeServer(const SafeModeServer&) = delete;
  SafeModeServer& operator=(const SafeModeServer&) = delete;

  Result<int> bind(const std::string& host, int port);
  void serve();
  void stop();

 private:
  HttpService service() const;

  std::string reason_;
  NotServingMode mode_;
  Router router_;
  HttpServer http_;
};

}  // namespace allot::server
