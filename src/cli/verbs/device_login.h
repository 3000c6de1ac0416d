// The OIDC half of `allot login`: the OAuth 2.0 device authorization grant
// (RFC 8628, identity/oidc/device_flow.h) against the issuer that allotd
// names at GET /api/v1/authconfig, so that the CLI needs only --server.
//
// Contract:
// - issuer_login_of() reads authconfig's "oidc" object: issuer, clientId,
//   scopes and, when allotd could discover them, the device flow's two
//   endpoints. kFailedPrecondition when allotd has no OIDC login.
// - device_login() fills in missing endpoints from the issuer's discovery
//   document, starts the grant, prints where to go and the user code on
//   `out` (flushed: a person or a script reads it while the CLI waits), then
//   polls the token endpoint as the issuer asks (interval, slow_down,
//   authorization_pending; a 5xx or timeout backs off) until it answers.
//   It returns the ID token, or an error that says what happened and what to
//   do: access_denied is kPermissionDenied, an expired code (expired_token,
//   or no answer before the code's expiry) kFailedPrecondition, an issuer
//   that cannot be reached kUnavailable, tokens without an ID token
//   kUnauthenticated. Time and waiting are `tools`' (tests pass a
//   ManualClock). No token or device code is ever printed or put in an error.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "cli/verbs/command.h"

namespace allot::cli {

struct IssuerLogin {
  std::string issuer;
  std::string client_id;
  std::string scopes;
  std::string device_authorization_endpoint;  // "" until discovered
  std::string token_endpoint;                 // "" until discovered
};

Result<IssuerLogin> issuer_login_of(const nlohmann::json& authconfig,
                                    const std::string& server_url);

Result<std::string> device_login(IssuerLogin login, const LoginTools& tools, std::ostream& out);

}  // namespace allot::cli
