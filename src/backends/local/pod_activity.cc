#include "backends/local/pod_activity.h"

#include <charconv>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include "backends/local/proc_table.h"

namespace allot::local {
namespace {

// usage_usec of a cgroup v2 folder's cpu.stat; nullopt when it has none.
std::optional<int64_t> cgroup_cpu_micros(const std::string& dir) {
  std::ifstream in(dir + "/cpu.stat");
  std::string key;
  int64_t value = 0;
  while (in >> key >> value) {
    if (key == "usage_usec") return value;
  }
  return std::nullopt;
}

int64_t proc_cpu_micros(const PodTrace& trace, const std::string& proc_root) {
  const std::vector<ProcEntry> table = read_proc_table(proc_root);
  int64_t total = 0;
  for (const pid_t pid : pod_members(table, trace.process, ::getpid())) {
    total += process_cpu_micros(pid, proc_root);
  }
  return total;
}

}  // namespace

std::string heartbeat_path(const std::string& work_dir) { return work_dir + "/.allot-heartbeat"; }

int64_t process_cpu_micros(pid_t pid, const std::string& proc_root) {
  std::ifstream in(proc_root + "/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return 0;
  // The command may hold spaces and parentheses: fields follow the last ')'.
  const size_t close = line.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(line.substr(close + 1));
  std::string field;
  int64_t ticks = 0;
  // After ')': state(3) ... utime(14) stime(15) cutime(16) cstime(17).
  for (int index = 3; index <= 17 && fields >> field; ++index) {
    int64_t value = 0;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (index >= 14 && error == std::errc() && end == field.data() + field.size()) ticks += value;
  }
  const long per_second = ::sysconf(_SC_CLK_TCK);
  return per_second > 0 ? ticks * 1'000'000 / per_second : 0;
}

std::optional<ActivitySample> read_pod_activity(const std::vector<PodTrace>& traces,
                                                const std::string& heartbeat_file,
                                                const std::string& proc_root) {
  if (traces.empty()) return std::nullopt;
  ActivitySample sample;
  for (const PodTrace& trace : traces) {
    std::optional<int64_t> from_cgroup;
    for (const std::string& dir : trace.cgroups) {
      if ((from_cgroup = cgroup_cpu_micros(dir))) break;
    }
    sample.cpu_micros += from_cgroup ? *from_cgroup : proc_cpu_micros(trace, proc_root);
  }
  struct stat info {};
  if (!heartbeat_file.empty() && ::stat(heartbeat_file.c_str(), &info) == 0) {
    sample.heartbeat = Timestamp::from_millis(static_cast<int64_t>(info.st_mtim.tv_sec) * 1000 +
                                              info.st_mtim.tv_nsec / 1'000'000);
  }
  return sample;
}

}  // namespace allot::local
