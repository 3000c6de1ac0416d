// Base64url (RFC 4648 section 5) without padding, as JOSE uses it (RFC 7515
// section 2).
//
// Contract: decoding is strict. Only the 64 URL-safe characters are accepted:
// no '=' padding, no whitespace, no '+' or '/', no length of 1 modulo 4, and
// the unused low bits of the last character must be zero (so that every byte
// string has exactly one encoding and a token cannot be altered without
// changing its meaning). Errors name the part being decoded, never its text.
// Pure functions, thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace allot::oidc {

// Decodes `text`; `what` names it in errors ("JWT header", "JWK n").
Result<std::string> base64url_decode(std::string_view text, std::string_view what);

// Encodes `bytes` without padding.
std::string base64url_encode(std::string_view bytes);

}  // namespace allot::oidc
