#include "governance/audit_checkpoint.h"

#include <algorithm>

#include "governance/audit_event.h"
#include "governance/hash_chain.h"

namespace allot::governance {
namespace {

// Reads `"key":` then a JSON string without escapes at `at`.
bool read_string_member(std::string_view line, size_t& at, std::string_view key,
                        std::string& value) {
  const std::string prefix = "\"" + std::string(key) + "\":\"";
  if (line.substr(at, prefix.size()) != prefix) return false;
  at += prefix.size();
  const size_t end = line.find('"', at);
  if (end == std::string_view::npos) return false;
  value = std::string(line.substr(at, end - at));
  if (value.find('\\') != std::string::npos) return false;
  at = end + 1;
  return true;
}

bool is_hex(std::string_view text, size_t size) {
  return text.size() == size && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

}  // namespace

std::string checkpoint_payload(uint64_t sequence, std::string_view record_hash,
                               std::string_view signed_at) {
  return "allot-audit-checkpoint/v1\n" + std::to_string(sequence) + "\n" +
         std::string(record_hash) + "\n" + std::string(signed_at) + "\n";
}

std::string checkpoint_line(const AuditCheckpoint& checkpoint) {
  std::string out = "{\"sequence\":" + std::to_string(checkpoint.sequence) + ",\"recordHash\":";
  append_json_string(out, checkpoint.record_hash);
  out += ",\"signedAt\":";
  append_json_string(out, checkpoint.signed_at);
  out += ",\"signature\":";
  append_json_string(out, checkpoint.signature);
  out += '}';
  return out;
}

Result<AuditCheckpoint> parse_checkpoint_line(std::string_view line) {
  const std::string_view head = "{\"sequence\":";
  const Status malformed = invalid_argument(
      "not a checkpoint line of the form {\"sequence\":N,\"recordHash\":...,\"signedAt\":...,"
      "\"signature\":...}");
  if (!line.starts_with(head)) return malformed;
  size_t at = head.size();
  AuditCheckpoint checkpoint;
  const size_t digits = at;
  while (at < line.size() && line[at] >= '0' && line[at] <= '9' && at - digits < 19) {
    checkpoint.sequence = checkpoint.sequence * 10 + static_cast<uint64_t>(line[at] - '0');
    ++at;
  }
  if (at == digits || line[digits] == '0' || line.substr(at, 1) != ",") return malformed;
  ++at;
  if (!read_string_member(line, at, "recordHash", checkpoint.record_hash) ||
      line.substr(at++, 1) != "," ||
      !read_string_member(line, at, "signedAt", checkpoint.signed_at) ||
      line.substr(at++, 1) != "," ||
      !read_string_member(line, at, "signature", checkpoint.signature) || line.substr(at) != "}") {
    return malformed;
  }
  if (!is_sha256_hex(checkpoint.record_hash)) {
    return invalid_argument("checkpoint " + std::to_string(checkpoint.sequence) +
                            ": recordHash is not 64 lower-case hex digits");
  }
  if (!is_hex(checkpoint.signature, 128)) {
    return invalid_argument("checkpoint " + std::to_string(checkpoint.sequence) +
                            ": signature is not 128 lower-case hex digits");
  }
  return checkpoint;
}

}  // namespace allot::governance
