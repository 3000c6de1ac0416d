// The caller of a request: the Principal every use case is asked for.
//
// Contract: allotd has no authentication yet, so every request is served as
// Principal::anonymous_admin() (what the API did before principals existed).
// The identity issue replaces this one function with bearer-token
// verification (OIDC, team credentials); no route builds a Principal itself.
// Stateless.
#pragma once

#include "model/principal.h"
#include "server/http/http_message.h"

namespace allot::server {

Principal caller_of(const HttpRequest& req);

}  // namespace allot::server
