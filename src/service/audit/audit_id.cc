#include "service/audit/audit_id.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include "identity/credentials/secret_codec.h"

namespace allot::audit {

std::string audit_id_of(Timestamp at, std::string_view random) {
  std::array<unsigned char, 16> bytes{};
  const auto ms = static_cast<uint64_t>(std::max<int64_t>(at.ms(), 0));
  for (size_t i = 0; i < 6; ++i)
    bytes[i] = static_cast<unsigned char>((ms >> (8 * (5 - i))) & 0xff);
  for (size_t i = 0; i < kAuditIdRandomBytes && i < random.size(); ++i) {
    bytes[6 + i] = static_cast<unsigned char>(random[i]);
  }
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x70);
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  id.reserve(36);
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) id += '-';
    id += kHex[bytes[i] >> 4];
    id += kHex[bytes[i] & 0xf];
  }
  return id;
}

AuditIdSource::AuditIdSource() : AuditIdSource(identity::random_bytes) {}

AuditIdSource::AuditIdSource(RandomBytes random) : random_(std::move(random)) {}

std::string AuditIdSource::next(Timestamp at) {
  std::array<char, kAuditIdRandomBytes> random{};
  {
    std::lock_guard lock(mu_);
    if (pool_.size() - used_ < kAuditIdRandomBytes) {
      pool_ = random_(kAuditIdPoolBytes);
      used_ = 0;
    }
    std::copy_n(pool_.begin() + static_cast<std::ptrdiff_t>(used_), kAuditIdRandomBytes,
                random.begin());
    used_ += kAuditIdRandomBytes;
  }
  return audit_id_of(at, std::string_view(random.data(), random.size()));
}

}  // namespace allot::audit
