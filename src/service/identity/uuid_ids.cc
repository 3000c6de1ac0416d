#include "service/identity/uuid_ids.h"

#include <cstdint>

#include "identity/credentials/secret_codec.h"

namespace allot {

std::string UuidIds::next_id() {
  constexpr char kHex[] = "0123456789abcdef";
  std::string bytes = identity::random_bytes(16);
  bytes[6] = static_cast<char>((static_cast<uint8_t>(bytes[6]) & 0x0f) | 0x40);  // version 4
  bytes[8] = static_cast<char>((static_cast<uint8_t>(bytes[8]) & 0x3f) | 0x80);  // RFC 4122 variant
  std::string id;
  id.reserve(36);
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) id += '-';
    const auto byte = static_cast<uint8_t>(bytes[i]);
    id += kHex[byte >> 4];
    id += kHex[byte & 0x0f];
  }
  return id;
}

}  // namespace allot
