#include "backends/slurm/process_watch.h"

#include <charconv>
#include <csignal>
#include <fstream>
#include <sstream>
#include <string>

namespace allot::slurm {

std::optional<uint64_t> process_start_ticks(int64_t pid) {
  if (pid <= 0) return std::nullopt;
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return std::nullopt;
  // "PID (comm) S ppid ...": comm may hold spaces and parentheses; the
  // fields after its last ')' start with field 3.
  const std::string stat = text.str();
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(stat.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22 && (fields >> field); ++i) {
    if (i < 22) continue;
    uint64_t ticks = 0;
    const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), ticks);
    if (ec != std::errc() || end != field.data() + field.size()) return std::nullopt;
    return ticks;
  }
  return std::nullopt;
}

bool kill_if_same(int64_t pid, uint64_t start_ticks) {
  const std::optional<uint64_t> now = process_start_ticks(pid);
  if (!now || *now != start_ticks) return false;
  return ::kill(static_cast<pid_t>(pid), SIGKILL) == 0;
}

}  // namespace allot::slurm
