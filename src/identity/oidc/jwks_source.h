// JwksSource: the port through which the verifier gets the issuer's JWKS
// document. The adapter over HTTPS is HttpJwksSource (http_jwks_source.h);
// tests use an in-memory fake.
//
// Contract: fetch_jwks() returns the current JWKS document's text, or
// kUnavailable when it cannot be had. It may block (network I/O); KeyCache
// calls it under its lock, at most once per refetch interval.
// Implementations must be safe to call from several threads.
#pragma once

#include <string>

#include "base/result.h"

namespace allot::oidc {

class JwksSource {
 public:
  virtual ~JwksSource() = default;
  virtual Result<std::string> fetch_jwks() = 0;
};

}  // namespace allot::oidc
