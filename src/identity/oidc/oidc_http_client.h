// OidcHttpClient: the HttpPort adapter over cpp-httplib, with TLS (OpenSSL,
// the server's certificate verified against the system's CAs or
// `ca_cert_path`), connect/read timeouts and a body size limit.
//
// Contract: only https URLs are requested, and http ones to a loopback host
// (the tests' provider); anything else is kInvalidArgument before any
// connection. Redirects are not followed (an issuer's endpoints are named
// exactly by its discovery document). A body over `max_body_bytes` stops the
// transfer and is kUnavailable. Each request uses its own connection, so the
// client is safe to call from several threads; OIDC requests are rare (a
// JWKS fetch per rotation, a poll per few seconds during a login).
#pragma once

#include <string>

#include "base/time.h"
#include "identity/oidc/http_port.h"

namespace allot::oidc {

struct OidcHttpOptions {
  Duration connect_timeout = Duration::seconds(5);
  Duration read_timeout = Duration::seconds(10);
  size_t max_body_bytes = size_t{1024} * 1024;
  std::string ca_cert_path;  // empty: the system's CA store
};

class OidcHttpClient final : public HttpPort {
 public:
  explicit OidcHttpClient(OidcHttpOptions options = {}) : options_(std::move(options)) {}

  Result<HttpReply> get(const std::string& url) override;
  Result<HttpReply> post_form(const std::string& url, const FormFields& fields) override;

 private:
  Result<HttpReply> exchange(const std::string& method, const std::string& url,
                             const std::string& form_body);

  const OidcHttpOptions options_;
};

// application/x-www-form-urlencoded text of `fields`.
std::string form_urlencode(const FormFields& fields);

}  // namespace allot::oidc
