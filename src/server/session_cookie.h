// The web UI's session cookie and its CSRF token (docs/web.md).
//
// Contract: the cookie `allot_session` carries a session token (the same
// `allots_...` token POST /api/v1/sessions answers), HttpOnly, SameSite=Strict,
// Path=/, and Secure when allotd serves TLS; it lasts as long as the browser
// session (the token itself expires as any session does). A request that
// authenticates by the cookie and changes anything (any method but GET and
// HEAD) must carry `X-CSRF-Token` equal to csrf_token_for(the token): the
// SHA-256 of a fixed label and the token, hex, which a page of another origin
// can neither read (the cookie is HttpOnly) nor compute. allotd stores
// neither the token nor the CSRF token. Stateless, pure.
#pragma once

#include <string>
#include <string_view>

namespace allot::server {

inline constexpr std::string_view kSessionCookie = "allot_session";
inline constexpr std::string_view kCsrfHeader = "X-CSRF-Token";

// The value of `allot_session` in a Cookie header ("" when absent).
std::string session_cookie_value(std::string_view cookie_header);
std::string csrf_token_for(std::string_view session_token);
// Equal in constant time (for the CSRF header).
bool same_secret(std::string_view a, std::string_view b);
// The Set-Cookie value that stores `session_token`, and the one that clears it.
std::string session_set_cookie(std::string_view session_token, bool secure);
std::string session_clear_cookie(bool secure);

}  // namespace allot::server
