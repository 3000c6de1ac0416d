#include "server/request_caller.h"

#include "base/check.h"

namespace allot::server {

const Principal& caller_of(const HttpRequest& req) {
  // Authentication ran first (api_server.cc); a route without it is a bug.
  ALLOT_CHECK(req.caller.has_value());
  return *req.caller;
}

}  // namespace allot::server
