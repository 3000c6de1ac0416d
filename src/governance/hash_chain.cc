#include "governance/hash_chain.h"

#include <algorithm>

namespace allot::governance {
namespace {

constexpr std::string_view kSequenceKey = "{\"sequence\":";
constexpr std::string_view kHashKey = ",\"previousHash\":\"";

}  // namespace

bool is_sha256_hex(std::string_view text) {
  return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

std::optional<LineHeader> parse_line_header(std::string_view line) {
  if (!line.starts_with(kSequenceKey)) return std::nullopt;
  size_t at = kSequenceKey.size();
  LineHeader header;
  const size_t digits_start = at;
  while (at < line.size() && line[at] >= '0' && line[at] <= '9') {
    if (at - digits_start >= 19) return std::nullopt;
    header.sequence = header.sequence * 10 + static_cast<uint64_t>(line[at] - '0');
    ++at;
  }
  // No leading zeros, at least 1: one text per number.
  if (at == digits_start || line[digits_start] == '0') return std::nullopt;
  if (line.substr(at, kHashKey.size()) != kHashKey) return std::nullopt;
  at += kHashKey.size();
  const std::string_view hash = line.substr(at, 64);
  if (!is_sha256_hex(hash) || line.substr(at + 64, 2) != "\",") return std::nullopt;
  header.previous_hash = std::string(hash);
  return header;
}

std::string AuditChain::append(const AuditEvent& event) {
  std::string body;
  body.reserve(1024);
  append_audit_line_body(body, event);
  return append_body(body);
}

std::string AuditChain::append_body(std::string_view body, std::string out) {
  const size_t start = out.size();
  out.reserve(start + body.size() + 100);
  append_audit_line_header(out, head_.sequence + 1, head_.hash);
  out += body;
  head_ = ChainHead{head_.sequence + 1,
                    sha256_(std::string_view(out).substr(start, out.size() - start))};
  return out;
}

}  // namespace allot::governance
