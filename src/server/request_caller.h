// The caller of a request: the Principal every use case is asked for.
//
// Contract: the API server authenticates every request before it reaches a
// route (server/api_server.h: a bearer API token or session token, 401
// otherwise), so a route that needs a caller always finds one; a route
// registered for unauthenticated requests (the login) must not call this.
// Stateless.
#pragma once

#include "model/principal.h"
#include "server/http/http_message.h"

namespace allot::server {

const Principal& caller_of(const HttpRequest& req);

}  // namespace allot::server
