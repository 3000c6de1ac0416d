#include "backends/slurm/sacct_usage.h"

#include <algorithm>
#include <optional>

#include "backends/slurm/parsable_fields.h"
#include "backends/slurm/slurm_jobs.h"

namespace allot::slurm {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
int64_t sacct_days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// GPUs of an AllocTRES list; nullopt when a gres/gpu amount is no number.
std::optional<int64_t> sacct_usage_gpus(std::string_view tres) {
  int64_t untyped = -1;
  int64_t typed = 0;
  size_t at = 0;
  while (at < tres.size()) {
    const size_t comma = std::min(tres.find(',', at), tres.size());
    const std::string_view entry = tres.substr(at, comma - at);
    at = comma + 1;
    const size_t eq = entry.find('=');
    if (eq == std::string_view::npos || !entry.starts_with("gres/gpu")) continue;
    const std::optional<int64_t> n = parsable_number(entry.substr(eq + 1));
    if (!n) return std::nullopt;
    if (entry.substr(0, eq) == "gres/gpu") {
      untyped = *n;
    } else if (entry[8] == ':') {
      typed += *n;
    }
  }
  return untyped >= 0 ? untyped : typed;
}

}  // namespace

std::optional<Timestamp> parse_sacct_time(std::string_view text) {
  // YYYY-MM-DDTHH:MM:SS
  if (text.size() != 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':') {
    return std::nullopt;
  }
  const auto part = [&](size_t at, size_t n) { return parsable_number(text.substr(at, n)); };
  const auto y = part(0, 4);
  const auto mo = part(5, 2);
  const auto d = part(8, 2);
  const auto h = part(11, 2);
  const auto mi = part(14, 2);
  const auto s = part(17, 2);
  if (!y || !mo || !d || !h || !mi || !s || *mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 ||
      *mi > 59 || *s > 60) {
    return std::nullopt;
  }
  const int64_t seconds = sacct_days_from_civil(*y, *mo, *d) * 86'400 + *h * 3600 + *mi * 60 + *s;
  return Timestamp::from_millis(seconds * 1000);
}

Result<std::vector<SacctUsage>> parse_sacct_usage(std::string_view text, std::string_view prefix) {
  std::vector<SacctUsage> out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t newline = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, newline - at);
    at = newline + 1;
    if (line.empty()) continue;
    const std::vector<std::string_view> f = parsable_fields(line);
    if (f.size() != 7) return invalid_argument("sacct line: " + std::string(line));
    const std::optional<WorkloadId> workload = workload_of_job_name(prefix, f[1]);
    if (!workload) continue;
    const std::optional<Timestamp> start = parse_sacct_time(f[3]);
    const std::optional<Timestamp> end = parse_sacct_time(f[4]);
    const std::optional<int64_t> elapsed = parsable_number(f[5]);
    const std::optional<int64_t> gpus = sacct_usage_gpus(f[6]);
    if (!elapsed || !gpus) return invalid_argument("sacct line: " + std::string(line));
    if (!start || !end) continue;  // never ran, or still runs
    out.push_back({std::string(f[0]), *workload, std::string(f[2]), *start, *end, *elapsed, *gpus});
  }
  return out;
}

}  // namespace allot::slurm
