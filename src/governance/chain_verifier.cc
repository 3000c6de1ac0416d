#include "governance/chain_verifier.h"

#include <utility>

namespace allot::governance {
namespace {

constexpr size_t kRecentWindow = 64;
// A gap larger than this is reported at once, not tracked sequence by sequence.
constexpr uint64_t kTrackedGap = 4096;

std::string at_text(const std::string& file, uint64_t line) {
  return file + ":" + std::to_string(line);
}

}  // namespace

std::string_view audit_problem_name(AuditProblemKind kind) {
  switch (kind) {
    case AuditProblemKind::kMalformed: return "malformed";
    case AuditProblemKind::kModified: return "modified";
    case AuditProblemKind::kRemoved: return "removed";
    case AuditProblemKind::kReordered: return "reordered";
    case AuditProblemKind::kTruncated: return "truncated";
    case AuditProblemKind::kBadCheckpoint: return "bad-checkpoint";
  }
  return "unknown";
}

ChainVerifier::ChainVerifier(Sha256Hex sha256, const CheckSignature& check,
                             const std::vector<AuditLineText>& checkpoint_lines)
    : sha256_(std::move(sha256)) {
  for (const AuditLineText& entry : checkpoint_lines) {
    const Place where{entry.file, entry.line};
    Result<AuditCheckpoint> parsed = parse_checkpoint_line(entry.text);
    if (!parsed.ok()) {
      problem(AuditProblemKind::kBadCheckpoint, 0, where, parsed.status().message());
      continue;
    }
    const AuditCheckpoint& cp = *parsed;
    if (!check(checkpoint_payload(cp.sequence, cp.record_hash, cp.signed_at), cp.signature)) {
      problem(AuditProblemKind::kBadCheckpoint, cp.sequence, where,
              "checkpoint of record " + std::to_string(cp.sequence) +
                  ": the signature does not verify with the audit key");
      continue;
    }
    ++report_.checkpoints;
    checkpoints_[cp.sequence] = Pending{std::move(parsed).value(), where, false};
  }
}

void ChainVerifier::problem(AuditProblemKind kind, uint64_t sequence, const Place& where,
                            std::string message) {
  report_.problems.push_back({kind, sequence, where.file, where.line, std::move(message)});
}

void ChainVerifier::remember(uint64_t sequence, std::string hash, Place where) {
  recent_[sequence] = {std::move(hash), std::move(where)};
  if (recent_.size() > kRecentWindow) recent_.erase(recent_.begin());
}

void ChainVerifier::check_link(const LineHeader& header, const Place& where) {
  const auto previous = recent_.find(header.sequence - 1);
  if (header.sequence == 1) {
    if (header.previous_hash != kGenesisHash) {
      problem(AuditProblemKind::kModified, 1, where,
              "record 1 at " + at_text(where.file, where.line) +
                  " does not carry the genesis hash: it was modified or records were removed "
                  "before it");
    }
    return;
  }
  if (previous == recent_.end() || previous->second.first == header.previous_hash) return;
  const Place& before = previous->second.second;
  problem(AuditProblemKind::kModified, header.sequence - 1, before,
          "record " + std::to_string(header.sequence - 1) + " at " +
              at_text(before.file, before.line) +
              " does not hash to the previousHash that record " + std::to_string(header.sequence) +
              " at " + at_text(where.file, where.line) + " carries: one of them was modified");
}

void ChainVerifier::check_checkpoint(uint64_t sequence, const std::string& hash,
                                     const Place& where) {
  const auto found = checkpoints_.find(sequence);
  if (found == checkpoints_.end()) return;
  found->second.seen = true;
  if (found->second.checkpoint.record_hash == hash) {
    report_.covered_through = std::max(report_.covered_through, sequence);
    return;
  }
  problem(AuditProblemKind::kModified, sequence, where,
          "record " + std::to_string(sequence) + " at " + at_text(where.file, where.line) +
              " does not match the hash its signed checkpoint (" + found->second.where.file + ":" +
              std::to_string(found->second.where.line) + ") holds: it was modified");
}

void ChainVerifier::add_line(std::string_view file, uint64_t line, std::string_view text) {
  Place where{std::string(file), line};
  std::string hash = sha256_(text);
  const std::optional<LineHeader> header = parse_line_header(text);
  if (!header) {
    problem(AuditProblemKind::kMalformed, expected_, where,
            at_text(where.file, line) + " is not a record of this log (expected record " +
                std::to_string(expected_) + "): it was modified, split or joined");
    return;
  }
  ++report_.records;
  const uint64_t sequence = header->sequence;
  if (sequence > expected_) {
    if (sequence - expected_ > kTrackedGap) {
      problem(AuditProblemKind::kRemoved, expected_, where,
              "records " + std::to_string(expected_) + " to " + std::to_string(sequence - 1) +
                  " are missing before " + at_text(where.file, line));
    } else {
      for (uint64_t gap = expected_; gap < sequence; ++gap) missing_[gap] = where;
    }
  } else if (sequence < expected_) {
    const bool was_missing = missing_.erase(sequence) > 0;
    problem(AuditProblemKind::kReordered, sequence, where,
            "record " + std::to_string(sequence) + " at " + at_text(where.file, line) +
                (was_missing ? " comes after record " : " repeats or comes after record ") +
                std::to_string(expected_ - 1) + ": records were reordered" +
                (was_missing ? "" : ", duplicated or inserted"));
  }
  check_link(*header, where);
  check_checkpoint(sequence, hash, where);
  if (sequence >= expected_) {
    expected_ = sequence + 1;
    report_.last_sequence = sequence;
  }
  remember(sequence, std::move(hash), std::move(where));
}

void ChainVerifier::add_torn_line(std::string_view file, uint64_t line, std::string_view text) {
  problem(AuditProblemKind::kTruncated, expected_, Place{std::string(file), line},
          at_text(std::string(file), line) + " is a partial record without its newline (" +
              std::to_string(text.size()) +
              " bytes): a write was cut short, or the log was truncated or changed");
}

VerificationReport ChainVerifier::finish() {
  // Missing sequences, as ranges, where each gap was seen.
  for (auto it = missing_.begin(); it != missing_.end();) {
    const uint64_t first = it->first;
    const Place where = it->second;
    uint64_t last = first;
    ++it;
    while (it != missing_.end() && it->first == last + 1) last = (it++)->first;
    problem(AuditProblemKind::kRemoved, first, where,
            (first == last
                 ? "record " + std::to_string(first) + " is"
                 : "records " + std::to_string(first) + " to " + std::to_string(last) + " are") +
                " missing before " + at_text(where.file, where.line));
  }
  missing_.clear();
  for (const auto& [sequence, pending] : checkpoints_) {
    if (pending.seen) continue;
    problem(AuditProblemKind::kTruncated, sequence, pending.where,
            "the checkpoint at " + at_text(pending.where.file, pending.where.line) +
                " vouches for record " + std::to_string(sequence) +
                ", which is not in the log: it was truncated or the record removed");
  }
  report_.uncovered_tail =
      report_.last_sequence - std::min(report_.last_sequence, report_.covered_through);
  return std::move(report_);
}

}  // namespace allot::governance
