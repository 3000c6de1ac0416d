// Reading one period of the audit log (the evidence export's audit section,
// server/evidence_routes.cc): only the files whose records can fall in it,
// line by line, with no cap but the period.
//
// Contract: read_audit_range() calls `record` with each record of `dir`
// whose stageTimestamp is in [from, to), oldest first (file and line order),
// parsed; lines that do not parse, or have no stageTimestamp, are skipped
// (verify_audit_log() reports them). A file is opened for its lines only
// when the times of its first and last records, widened by
// kAuditRangeSlack either way, meet the period; of the others only the
// first and the last line are read (the last by seeking from the end). A
// line's time is read from its text (`"stageTimestamp":"T"`, as the writer
// puts it); only the records in the period are parsed whole.
// Records are appended in the order of their stageTimestamp but for those
// written concurrently and those the outbox appends at a restart
// (audit_outbox.h), which are at most seconds older than the ones before
// them: the slack covers them. kUnavailable when a file cannot be read.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "base/time.h"

namespace allot::audit {

inline constexpr Duration kAuditRangeSlack = Duration::minutes(5);

struct AuditRangeRead {
  size_t files = 0;       // log files in `dir`
  size_t files_read = 0;  // of them, read line by line
  size_t records = 0;     // records in the period
};

using AuditRangeVisitor = std::function<void(nlohmann::json record)>;

Result<AuditRangeRead> read_audit_range(const std::string& dir, Timestamp from, Timestamp to,
                                        const AuditRangeVisitor& record);

}  // namespace allot::audit
