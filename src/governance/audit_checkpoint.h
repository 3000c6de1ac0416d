// Audit checkpoints (docs/governance.md): a signed statement "the audit log's
// record `sequence` hashes to `recordHash`", which, with the hash chain,
// vouches for every record up to it. Written apart from the log, one JSON
// line each: {"sequence":N,"recordHash":"<hex>","signedAt":"<RFC 3339>",
// "signature":"<hex of the 64-byte Ed25519 signature>"}.
//
// Contract: checkpoint_payload() is the exact text signed (the signing and
// its check are injected: Ed25519 at the edge). checkpoint_line() writes the
// line; parse_checkpoint_line() reads exactly that form back and refuses
// anything else with a message that says what is wrong.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace allot::governance {

struct AuditCheckpoint {
  uint64_t sequence = 0;
  std::string record_hash;  // hex SHA-256 of record `sequence`'s line
  std::string signed_at;    // RFC 3339 (audit_time_text)
  std::string signature;    // hex, 128 digits

  friend bool operator==(const AuditCheckpoint&, const AuditCheckpoint&) = default;
};

// Ed25519 over the payload: returns the signature in hex.
using SignPayload = std::function<std::string(std::string_view payload)>;
// True when `signature_hex` is a valid signature of `payload` by the log's key.
using CheckSignature =
    std::function<bool(std::string_view payload, std::string_view signature_hex)>;

std::string checkpoint_payload(uint64_t sequence, std::string_view record_hash,
                               std::string_view signed_at);
std::string checkpoint_line(const AuditCheckpoint& checkpoint);
Result<AuditCheckpoint> parse_checkpoint_line(std::string_view line);

}  // namespace allot::governance
