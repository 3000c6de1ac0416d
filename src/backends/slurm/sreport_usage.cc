#include "backends/slurm/sreport_usage.h"

#include <chrono>
#include <cstdio>

#include "backends/slurm/parsable_fields.h"

namespace allot::slurm {
namespace {

constexpr size_t kSreportUsageFields = 4;

Status sreport_line_error(size_t number, std::string_view line, const std::string& why) {
  return invalid_argument("sreport line " + std::to_string(number) + " (\"" + std::string(line) +
                          "\"): " + why);
}

}  // namespace

std::vector<std::string> sreport_usage_args(const std::string& cluster, Timestamp from,
                                            Timestamp to) {
  return {"sreport",
          "-n",
          "-P",
          "-t",
          "seconds",
          "-T",
          "gres/gpu",
          "cluster",
          "AccountUtilizationByUser",
          "cluster=" + cluster,
          "start=" + slurm_time_text(from),
          "end=" + slurm_time_text(to),
          "format=" + std::string(kSreportUsageFormat)};
}

Result<std::vector<BackendAccountUsage>> parse_sreport_usage(std::string_view text) {
  std::vector<BackendAccountUsage> accounts;
  size_t number = 0;
  for (size_t at = 0; at < text.size();) {
    const size_t newline = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, newline - at);
    at = newline + 1;
    ++number;
    if (line.find_first_not_of(" \r") == std::string_view::npos) continue;
    const std::vector<std::string_view> fields = parsable_fields(line);
    if (fields.size() != kSreportUsageFields) {
      return sreport_line_error(number, line,
                                "expected 4 fields (" + std::string(kSreportUsageFormat) + ")");
    }
    const std::string_view account = fields[0];
    const std::string_view login = fields[1];
    const std::string_view tres = fields[2];
    const std::string_view used = fields[3];
    const std::optional<int64_t> seconds = parsable_number(used);
    if (!seconds || *seconds < 0) {
      return sreport_line_error(number, line, "Used is not a whole number of seconds");
    }
    if (account.empty()) return sreport_line_error(number, line, "no account");
    if (!login.empty() || tres != "gres/gpu") continue;
    accounts.push_back({std::string(account), *seconds});
  }
  return accounts;
}

std::string slurm_time_text(Timestamp at) {
  using namespace std::chrono;  // NOLINT(google-build-using-namespace): calendar arithmetic
  const sys_seconds time = floor<seconds>(sys_time<milliseconds>(milliseconds(at.ms())));
  const sys_days day = floor<days>(time);
  const year_month_day date{day};
  const hh_mm_ss<seconds> clock{time - day};
  char text[96];  // room for any int and long the format may print
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02ld:%02ld:%02ld",
                static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                static_cast<unsigned>(date.day()), static_cast<long>(clock.hours().count()),
                static_cast<long>(clock.minutes().count()),
                static_cast<long>(clock.seconds().count()));
  return text;
}

}  // namespace allot::slurm
