// Reading the audit log back (docs/governance.md): verification of the
// files against the chain and the signed checkpoints (`allot audit verify`,
// offline) and the query behind `GET /api/v1/audit` and `allot audit log`.
//
// Contract: verify_audit_log() reads every log file of `dir` in order and
// every checkpoint line of `checkpoint_dir`, and returns the verifier's
// report (governance/chain_verifier.h); kUnavailable only when a file cannot
// be read. query_audit_log() returns the lines (records, as written) that
// match every filter given, oldest first, at most `limit` (the newest ones
// when more match); lines that do not parse are skipped (verify reports them).
// audit_ids_after() skips them too.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "base/time.h"
#include "governance/chain_verifier.h"

namespace allot::audit {

Result<governance::VerificationReport> verify_audit_log(const std::string& dir,
                                                        const std::string& checkpoint_dir,
                                                        const std::string& public_key);

// The report as `allot audit verify -o json` and the evidence report show it:
// verified, records, lastSequence, checkpoints, coveredThrough,
// uncoveredTail, problems [{kind, sequence, file, line, message}].
nlohmann::json verification_report_json(const governance::VerificationReport& report);

struct AuditQuery {
  std::optional<std::string> user;
  std::optional<std::string> verb;
  std::optional<std::string> namespace_name;
  std::optional<Timestamp> since;  // stageTimestamp >= since
  std::optional<Timestamp> until;  // stageTimestamp < until
  size_t limit = 1000;
};

Result<std::vector<std::string>> query_audit_log(const std::string& dir, const AuditQuery& query);

// The auditIDs of the records of `dir` whose sequence is above `after`
// (reading the files newest first, and no file older than the one where the
// sequence `after` is): where a restart looks for the records of the audit
// outbox's rows (audit_outbox.h).
Result<std::unordered_set<std::string>> audit_ids_after(const std::string& dir, uint64_t after);

}  // namespace allot::audit
