#include "server/session_cookie.h"

#include <array>

#include <openssl/crypto.h>
#include <openssl/evp.h>

namespace allot::server {
namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

std::string attributes(bool secure) {
  return std::string("; Path=/; HttpOnly; SameSite=Strict") + (secure ? "; Secure" : "");
}

}  // namespace

std::string session_cookie_value(std::string_view cookie_header) {
  while (!cookie_header.empty()) {
    const size_t end = std::min(cookie_header.find(';'), cookie_header.size());
    const std::string_view pair = trimmed(cookie_header.substr(0, end));
    const size_t equals = pair.find('=');
    if (equals != std::string_view::npos && trimmed(pair.substr(0, equals)) == kSessionCookie) {
      return std::string(trimmed(pair.substr(equals + 1)));
    }
    cookie_header.remove_prefix(std::min(end + 1, cookie_header.size()));
  }
  return {};
}

std::string csrf_token_for(std::string_view session_token) {
  const std::string input = std::string("allot-ui-csrf:") + std::string(session_token);
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  EVP_Digest(input.data(), input.size(), digest.data(), &size, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(size_t{size} * 2);
  for (unsigned int i = 0; i < size; ++i) {
    hex.push_back(kHex[digest[i] >> 4]);
    hex.push_back(kHex[digest[i] & 0xf]);
  }
  return hex;
}

bool same_secret(std::string_view a, std::string_view b) {
  return a.size() == b.size() && !a.empty() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string session_set_cookie(std::string_view session_token, bool secure) {
  return std::string(kSessionCookie) + "=" + std::string(session_token) + attributes(secure);
}

std::string session_clear_cookie(bool secure) {
  return std::string(kSessionCookie) + "=" + attributes(secure) +
         "; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT";
}

}  // namespace allot::server
