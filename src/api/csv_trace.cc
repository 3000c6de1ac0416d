#include "api/csv_trace.h"

#include <optional>
#include <string>

#include "api/trace_csv.h"

namespace allot {
namespace {

struct CsvColumns {
  size_t submit = 0;
  size_t duration = 0;
  size_t gpus = 0;
  size_t team = 0;
  std::optional<size_t> user;
  std::optional<size_t> priority_class;
  std::optional<size_t> name;
};

Result<CsvColumns> find_columns(const TraceCsv& reader) {
  ALLOT_RETURN_IF_ERROR(reader.check_known_columns(
      {"submit_s", "duration_s", "gpus", "team", "user", "priority_class", "name"}));
  CsvColumns columns;
  ALLOT_ASSIGN_OR_RETURN(columns.submit, reader.required_column("submit_s"));
  ALLOT_ASSIGN_OR_RETURN(columns.duration, reader.required_column("duration_s"));
  ALLOT_ASSIGN_OR_RETURN(columns.gpus, reader.required_column("gpus"));
  ALLOT_ASSIGN_OR_RETURN(columns.team, reader.required_column("team"));
  columns.user = reader.column("user");
  columns.priority_class = reader.column("priority_class");
  columns.name = reader.column("name");
  return columns;
}

std::optional<std::string> optional_field(const TraceCsv& reader, std::optional<size_t> column) {
  if (!column || reader.text(*column).empty()) {
    return std::nullopt;
  }
  return std::string(reader.text(*column));
}

Result<TraceJob> read_job(const TraceCsv& reader, const CsvColumns& columns) {
  TraceJob job;
  job.line = reader.line();
  ALLOT_ASSIGN_OR_RETURN(const int64_t submit_ms, reader.millis(columns.submit, true));
  job.submit = Timestamp::from_millis(submit_ms);
  ALLOT_ASSIGN_OR_RETURN(const int64_t duration_ms, reader.millis(columns.duration, false));
  job.duration = Duration::millis(duration_ms);
  ALLOT_ASSIGN_OR_RETURN(job.gpus, reader.count(columns.gpus));
  job.team = std::string(reader.text(columns.team));
  if (job.team.empty()) {
    return reader.field_error(columns.team, "missing value");
  }
  job.user = optional_field(reader, columns.user);
  job.priority_class = optional_field(reader, columns.priority_class);
  job.name = optional_field(reader, columns.name);
  return job;
}

}  // namespace

Result<std::vector<TraceJob>> parse_csv_trace(std::string_view text, std::string_view source_name) {
  ALLOT_ASSIGN_OR_RETURN(TraceCsv reader, TraceCsv::open(text, source_name));
  ALLOT_ASSIGN_OR_RETURN(const CsvColumns columns, find_columns(reader));
  std::vector<TraceJob> jobs;
  while (true) {
    ALLOT_ASSIGN_OR_RETURN(const bool more, reader.next_row());
    if (!more) {
      return jobs;
    }
    ALLOT_ASSIGN_OR_RETURN(TraceJob job, read_job(reader, columns));
    jobs.push_back(std::move(job));
  }
}

}  // namespace allot
