// The audit log on disk (docs/governance.md): DATA/audit/audit-NNNNNN.jsonl,
// numbered from 1 in the order written (rotation by size), one record a
// line; checkpoints in CHECKPOINT_DIR/checkpoints.jsonl. Also the SHA-256
// the chain uses here (OpenSSL: the SHA extensions make a verify of a
// million records a matter of a second).
//
// Contract: audit_log_files() lists the log files of `dir` in order (full
// paths; none when the folder is missing). for_each_line() reads a file
// line by line, calls `line` with (number from 1, text without newline) and
// returns the last line that has no newline (a torn write), or "". No
// function logs what it reads.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace allot::audit {

inline constexpr std::string_view kCheckpointFile = "checkpoints.jsonl";

std::string audit_sha256_hex(std::string_view bytes);

// "audit-000042.jsonl" for 42.
std::string audit_file_name(uint64_t number);
Result<std::vector<std::string>> audit_log_files(const std::string& dir);

using LineVisitor = std::function<void(uint64_t number, std::string_view text)>;
Result<std::string> for_each_line(const std::string& path, const LineVisitor& line);

}  // namespace allot::audit
