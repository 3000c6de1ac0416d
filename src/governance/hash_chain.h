// The audit log's hash chain (docs/governance.md): record n's line carries,
// as `previousHash`, the SHA-256 of record n-1's line (its bytes, without
// the newline); record 1 carries kGenesisHash. The hash itself is injected
// (Sha256Hex: libsodium or OpenSSL at the edge), so that this layer stays
// pure.
//
// Contract: AuditChain is the writer's state: next() gives the record the
// next event becomes and advances over its line. parse_line_header() reads
// the two members every line starts with, exactly as audit_line() writes
// them (`{"sequence":N,"previousHash":"<64 hex>",`), and nothing else:
// anything that does not start so is not a record of this log.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "governance/audit_event.h"

namespace allot::governance {

// Lower-case hex of SHA-256(bytes).
using Sha256Hex = std::function<std::string(std::string_view bytes)>;

inline constexpr std::string_view kGenesisHash =
    "0000000000000000000000000000000000000000000000000000000000000000";

struct LineHeader {
  uint64_t sequence = 0;
  std::string previous_hash;
};

std::optional<LineHeader> parse_line_header(std::string_view line);

// True for 64 lower-case hex digits.
bool is_sha256_hex(std::string_view text);

// Where the chain stands: the last record's sequence (0: none) and the hash
// of its line (kGenesisHash: none).
struct ChainHead {
  uint64_t sequence = 0;
  std::string hash = std::string(kGenesisHash);

  friend bool operator==(const ChainHead&, const ChainHead&) = default;
};

class AuditChain {
 public:
  AuditChain(Sha256Hex sha256, ChainHead head)
      : sha256_(std::move(sha256)), head_(std::move(head)) {}

  // The line of `event` as the next record; the head moves past it.
  std::string append(const AuditEvent& event);
  // The same from the event's line body (append_audit_line_body()), built
  // beforehand: appended to `out`, which is returned.
  std::string append_body(std::string_view body, std::string out = {});
  [[nodiscard]] const ChainHead& head() const { return head_; }

 private:
  Sha256Hex sha256_;
  ChainHead head_;
};

}  // namespace allot::governance
