// HttpPort: the few HTTP requests OIDC needs (GET a JSON document, POST a
// form), as a port so that the device flow and the JWKS source can be tested
// without a network. The adapter over cpp-httplib is OidcHttpClient
// (oidc_http_client.h).
//
// Contract: a reply is any HTTP answer, whatever its status; a Status is
// returned only when no answer came (kUnavailable: connection, TLS, timeout,
// a body over the size limit) or the URL is unusable (kInvalidArgument).
// Implementations must be safe to call from several threads.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/result.h"

namespace allot::oidc {

struct HttpReply {
  int status = 0;
  std::string body;
};

using FormFields = std::vector<std::pair<std::string, std::string>>;

class HttpPort {
 public:
  virtual ~HttpPort() = default;
  virtual Result<HttpReply> get(const std::string& url) = 0;
  virtual Result<HttpReply> post_form(const std::string& url, const FormFields& fields) = 0;
};

}  // namespace allot::oidc
