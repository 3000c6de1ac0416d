#include "service/audit/audit_range.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <string_view>
#include <utility>

#include "api/rfc3339.h"
#include "service/audit/audit_files.h"

namespace allot::audit {
namespace {

// The most of a file's end read to find its last line.
constexpr std::streamoff kAuditRangeTailBytes = 1 << 16;

std::optional<Timestamp> audit_range_time(const nlohmann::json& record) {
  if (!record.is_object()) return std::nullopt;
  const auto at = record.find("stageTimestamp");
  if (at == record.end() || !at->is_string()) return std::nullopt;
  const Result<Timestamp> parsed = parse_rfc3339(at->get<std::string>());
  return parsed.ok() ? std::optional<Timestamp>(*parsed) : std::nullopt;
}

// A line's stageTimestamp without parsing the whole record: the writer puts
// the member as `"stageTimestamp":"T"` (governance/audit_event.cc), and a
// string value holding those characters would have its quotes escaped.
// Parsed whole when that text is missing.
std::optional<Timestamp> audit_range_line_time(std::string_view line) {
  static constexpr std::string_view kMember = R"("stageTimestamp":")";
  const size_t at = line.find(kMember);
  if (at != std::string_view::npos) {
    const size_t begin = at + kMember.size();
    const size_t end = line.find('"', begin);
    if (end != std::string_view::npos) {
      const Result<Timestamp> parsed = parse_rfc3339(line.substr(begin, end - begin));
      if (parsed.ok()) return *parsed;
    }
  }
  return audit_range_time(nlohmann::json::parse(line, nullptr, false));
}

// The times of a file's first and last complete lines; nullopt when either
// cannot be read (the file is then read whole).
std::optional<std::pair<Timestamp, Timestamp>> audit_range_bounds(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string first;
  if (!in || !std::getline(in, first) || in.eof()) return std::nullopt;
  in.clear();
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const std::streamoff start = std::max<std::streamoff>(0, size - kAuditRangeTailBytes);
  in.seekg(start);
  std::string tail(static_cast<size_t>(size - start), '\0');
  if (!in.read(tail.data(), static_cast<std::streamsize>(tail.size()))) return std::nullopt;
  const size_t end = tail.rfind('\n');  // ends the last complete line
  if (end == std::string::npos || end == 0) return std::nullopt;
  const size_t before = tail.rfind('\n', end - 1);
  if (before == std::string::npos && start > 0) return std::nullopt;  // a line over the tail
  const size_t begin = before == std::string::npos ? 0 : before + 1;
  const std::string last = tail.substr(begin, end - begin);
  const std::optional<Timestamp> first_at = audit_range_line_time(first);
  const std::optional<Timestamp> last_at = audit_range_line_time(last);
  if (!first_at || !last_at) return std::nullopt;
  return std::make_pair(*first_at, *last_at);
}

}  // namespace

Result<AuditRangeRead> read_audit_range(const std::string& dir, Timestamp from, Timestamp to,
                                        const AuditRangeVisitor& record) {
  ALLOT_ASSIGN_OR_RETURN(const std::vector<std::string> files, audit_log_files(dir));
  AuditRangeRead read;
  read.files = files.size();
  for (const std::string& file : files) {
    const std::optional<std::pair<Timestamp, Timestamp>> bounds = audit_range_bounds(file);
    if (bounds &&
        (bounds->second + kAuditRangeSlack < from || !(bounds->first - kAuditRangeSlack < to))) {
      continue;
    }
    ++read.files_read;
    ALLOT_ASSIGN_OR_RETURN(const std::string torn,
                           for_each_line(file, [&](uint64_t, std::string_view text) {
                             const std::optional<Timestamp> at = audit_range_line_time(text);
                             if (!at || *at < from || !(*at < to)) return;
                             nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
                             if (!parsed.is_object()) return;
                             ++read.records;
                             record(std::move(parsed));
                           }));
    (void)torn;  // a torn last line is no record (verify reports it)
  }
  return read;
}

}  // namespace allot::audit
