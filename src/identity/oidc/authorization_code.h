// The authorization code grant with PKCE (RFC 6749 section 4.1, RFC 7636,
// OpenID Connect Core section 3.1), as the web dashboard's browser login
// uses it: the URL the browser is sent to, and the code's redemption at the
// token endpoint.
//
// Contract:
// - pkce_s256_challenge(verifier) is BASE64URL(SHA-256(verifier)) (RFC 7636
//   section 4.2, method S256; `plain` is never used).
// - authorization_url() appends response_type=code, client_id, redirect_uri,
//   scope, state, nonce, code_challenge and code_challenge_method=S256 to
//   the endpoint (percent-encoded; `&` when the endpoint has a query).
// - redeem_authorization_code() POSTs grant_type=authorization_code with the
//   code, the redirect URI, the client id and the code verifier (a public
//   client: no secret) and returns the ID token of the answer. A refusal
//   (HTTP 4xx: a code used twice, expired, or a wrong verifier) is
//   kUnauthenticated naming the issuer's `error`; no answer, a 5xx or an
//   answer without id_token is kUnavailable. Messages never carry the code,
//   the verifier or a token.
// Pure apart from the HttpPort it is given; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"
#include "identity/oidc/http_port.h"

namespace allot::oidc {

std::string pkce_s256_challenge(std::string_view code_verifier);

struct AuthorizationRequest {
  std::string authorization_endpoint;
  std::string client_id;
  std::string redirect_uri;
  std::string scope;
  std::string state;
  std::string nonce;
  std::string code_challenge;  // pkce_s256_challenge(the verifier)
};

std::string authorization_url(const AuthorizationRequest& request);

struct CodeRedemption {
  std::string token_endpoint;
  std::string client_id;
  std::string redirect_uri;  // the one the authorization request named
  std::string code;
  std::string code_verifier;
};

Result<std::string> redeem_authorization_code(const CodeRedemption& redemption, HttpPort& http);

}  // namespace allot::oidc
