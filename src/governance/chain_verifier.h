// ChainVerifier: checks an audit log against its hash chain and its signed
// checkpoints (docs/governance.md), one line at a time, so that a log of
// millions of records is checked in one pass with little memory.
//
// Contract: construct with the hash, the signature check and the checkpoint
// lines (file, line number, text); feed every line of every log file in
// order (add_line; a last line without its newline through add_torn_line);
// finish() returns the report. Every problem names its kind, the record's
// sequence and where it is (file and line):
// - kMalformed: a line that is not a record of this log (a change of its
//   first members, a line split or joined);
// - kModified: a record whose hash is not the previousHash its successor
//   carries, or not the hash its checkpoint signed;
// - kRemoved: sequences missing (reported once, as a range, where the gap is);
// - kReordered: a record that comes after a later one (moved, swapped,
//   duplicated or inserted);
// - kTruncated: a partial last line, or a checkpoint of a record that is no
//   longer in the log;
// - kBadCheckpoint: a checkpoint line that does not parse, or whose
//   signature the key does not verify (it then vouches for nothing).
// `uncovered_tail` counts the records after the last valid checkpoint that
// matched: the chain links them, but nothing signed vouches for them yet.
// Pure and deterministic.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "governance/audit_checkpoint.h"
#include "governance/hash_chain.h"

namespace allot::governance {

enum class AuditProblemKind {
  kMalformed,
  kModified,
  kRemoved,
  kReordered,
  kTruncated,
  kBadCheckpoint
};

std::string_view audit_problem_name(AuditProblemKind kind);

struct AuditProblem {
  AuditProblemKind kind = AuditProblemKind::kModified;
  uint64_t sequence = 0;  // the record concerned (the first of a removed range)
  std::string file;
  uint64_t line = 0;  // 1-based; 0 when not in a file
  std::string message;
};

struct AuditLineText {
  std::string file;
  uint64_t line = 0;
  std::string text;
};

struct VerificationReport {
  uint64_t records = 0;          // lines read as records
  uint64_t last_sequence = 0;    // the highest in order
  uint64_t checkpoints = 0;      // valid checkpoints
  uint64_t covered_through = 0;  // the last valid checkpoint that matched its record
  uint64_t uncovered_tail = 0;
  std::vector<AuditProblem> problems;

  [[nodiscard]] bool ok() const { return problems.empty(); }
};

class ChainVerifier {
 public:
  ChainVerifier(Sha256Hex sha256, const CheckSignature& check,
                const std::vector<AuditLineText>& checkpoint_lines);

  void add_line(std::string_view file, uint64_t line, std::string_view text);
  void add_torn_line(std::string_view file, uint64_t line, std::string_view text);
  VerificationReport finish();

 private:
  struct Place {
    std::string file;
    uint64_t line = 0;
  };
  struct Pending {
    AuditCheckpoint checkpoint;
    Place where;
    bool seen = false;
  };
  void problem(AuditProblemKind kind, uint64_t sequence, const Place& where, std::string message);
  void check_link(const LineHeader& header, const Place& where);
  void check_checkpoint(uint64_t sequence, const std::string& hash, const Place& where);
  void remember(uint64_t sequence, std::string hash, Place where);

  Sha256Hex sha256_;
  std::map<uint64_t, Pending> checkpoints_;  // valid ones, by sequence
  VerificationReport report_;
  uint64_t expected_ = 1;
  // The most recent records' hashes and places, by sequence (a window), for
  // the links of records that follow a reordering.
  std::map<uint64_t, std::pair<std::string, Place>> recent_;
  std::map<uint64_t, Place> missing_;  // sequences skipped, where the gap was seen
};

}  // namespace allot::governance
