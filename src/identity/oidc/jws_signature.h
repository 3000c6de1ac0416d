// JWS signature verification with OpenSSL 3's EVP interface (no cryptography
// is written here).
//
// Contract: verify_jws_signature() checks `signature` over `signing_input`
// with `key` for `alg`: RS256 (RSASSA-PKCS1-v1_5, SHA-256), PS256 (RSASSA-PSS,
// SHA-256, MGF1-SHA-256, salt of 32 bytes) or ES256 (ECDSA P-256, SHA-256).
// The key's type must match the algorithm (RSA for RS/PS, EC for ES), so an
// RSA key is never used for ECDSA and nothing is ever treated as an HMAC
// secret. ES256 signatures arrive as R||S (64 bytes, RFC 7518 section 3.4) and
// are converted to DER for OpenSSL. Every failure is kUnauthenticated with a
// fixed message. Thread-safe (EVP_PKEY is only read).
#pragma once

#include <string_view>

#include <openssl/evp.h>

#include "base/status.h"
#include "identity/oidc/jwt.h"

namespace allot::oidc {

// REQUIRES: key != nullptr.
Status verify_jws_signature(JwsAlg alg, EVP_PKEY* key, std::string_view signing_input,
                            std::string_view signature);

}  // namespace allot::oidc
