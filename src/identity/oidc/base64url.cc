#include "identity/oidc/base64url.h"

#include <array>
#include <cstdint>

namespace allot::oidc {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

constexpr std::array<int8_t, 256> make_table() {
  std::array<int8_t, 256> table{};
  for (auto& entry : table) entry = -1;
  for (size_t i = 0; i < kAlphabet.size(); ++i) {
    table[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int8_t>(i);
  }
  return table;
}

constexpr std::array<int8_t, 256> kTable = make_table();

Status malformed(std::string_view what, std::string_view why) {
  return invalid_argument("malformed base64url in " + std::string(what) + ": " + std::string(why));
}

}  // namespace

Result<std::string> base64url_decode(std::string_view text, std::string_view what) {
  if (text.size() % 4 == 1) return malformed(what, "impossible length");
  std::string out;
  out.reserve(text.size() / 4 * 3 + 2);
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : text) {
    const int8_t value = kTable[static_cast<unsigned char>(c)];
    if (value < 0) return malformed(what, "a character outside the URL-safe alphabet");
    buffer = (buffer << 6) | static_cast<uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  // The 2 or 4 bits left over must be zero: a non-canonical encoding is refused.
  if ((buffer & ((1U << bits) - 1)) != 0) return malformed(what, "non-zero trailing bits");
  return out;
}

std::string base64url_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : bytes) {
    buffer = (buffer << 8) | static_cast<unsigned char>(c);
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out.push_back(kAlphabet[(buffer >> bits) & 0x3F]);
    }
  }
  if (bits > 0) out.push_back(kAlphabet[(buffer << (6 - bits)) & 0x3F]);
  return out;
}

}  // namespace allot::oidc
