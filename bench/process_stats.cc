#include "bench/process_stats.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/resource.h>
#include <unistd.h>

namespace allot::bench {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// utime + stime of a /proc/.../stat line, in seconds; 0 when unreadable.
// utime + stime (fields 14-15 of /proc/PID/stat) and, with `children`,
// cutime + cstime (16-17: the children it waited for), in seconds.
double stat_cpu_seconds(const std::string& stat, bool children = false) {
  const size_t paren = stat.rfind(')');
  if (paren == std::string::npos) return 0;
  std::istringstream fields(stat.substr(paren + 2));
  std::string skip;
  for (int field = 3; field < 14; ++field) fields >> skip;  // state .. cmajflt
  double user = 0;
  double system = 0;
  fields >> user >> system;
  if (children) fields >> user >> system;
  return (user + system) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

}  // namespace

double rusage_cpu_s(int who) {
  rusage usage{};
  ::getrusage(who, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double rss_mib(pid_t pid) {
  if (pid <= 0) return 0;
  std::istringstream status(read_file("/proc/" + std::to_string(pid) + "/status"));
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0;
}

CpuTime cpu_time(pid_t pid) {
  CpuTime cpu;
  if (pid <= 0) return cpu;
  const std::string proc = "/proc/" + std::to_string(pid);
  const std::string stat = read_file(proc + "/stat");
  cpu.total_s = stat_cpu_seconds(stat);
  cpu.children_s = stat_cpu_seconds(stat, /*children=*/true);
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator(proc + "/task", error)) {
    const int tid = std::atoi(task.path().filename().c_str());
    cpu.threads[tid] = stat_cpu_seconds(read_file(task.path() / "stat"));
  }
  return cpu;
}

double busiest_thread_s(const CpuTime& before, const CpuTime& after) {
  double busiest = 0;
  for (const auto& [tid, seconds] : after.threads) {
    const auto it = before.threads.find(tid);
    busiest = std::max(busiest, seconds - (it == before.threads.end() ? 0 : it->second));
  }
  return busiest;
}

}  // namespace allot::bench
