#include "backends/local/cgroup_signal.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/local/cgroup_files.h"
#include "backends/local/errno_status.h"

namespace allot::local {
namespace {

using SteadyClock = std::chrono::steady_clock;
constexpr auto kPollStep = std::chrono::milliseconds(2);

int signal_each(const std::vector<pid_t>& pids, int sig) {
  int signalled = 0;
  for (const pid_t pid : pids) {
    if (pid > 1 && pid != ::getpid() && ::kill(pid, sig) == 0) ++signalled;
  }
  return signalled;
}

// Freezes a v1 freezer cgroup, kills everything in it, thaws it.
int kill_frozen(const std::string& dir, SteadyClock::time_point deadline) {
  const std::string state_file = dir + "/freezer.state";
  (void)write_control_file(state_file, "FROZEN");
  std::string state;
  while (read_small_file(state_file, state) && !state.starts_with("FROZEN") &&
         SteadyClock::now() < deadline) {
    std::this_thread::sleep_for(kPollStep);  // the kernel freezes asynchronously: poll, bounded
  }
  const int killed = signal_each(cgroup_pids(dir), SIGKILL);
  (void)write_control_file(state_file, "THAWED");
  return killed;
}

// Signals until the cgroup is empty or the deadline has passed.
int kill_until_empty(const std::string& dir, SteadyClock::time_point deadline) {
  int killed = 0;
  for (std::vector<pid_t> pids = cgroup_pids(dir); !pids.empty() && SteadyClock::now() < deadline;
       pids = cgroup_pids(dir)) {
    killed += signal_each(pids, SIGKILL);
    std::this_thread::sleep_for(kPollStep);
  }
  return killed;
}

}  // namespace

std::vector<pid_t> cgroup_pids(const std::string& dir) {
  std::vector<pid_t> pids;
  std::string text;
  if (!read_small_file(dir + "/cgroup.procs", text)) return pids;
  const char* cursor = text.c_str();
  while (*cursor != '\0') {
    char* end = nullptr;
    const long pid = std::strtol(cursor, &end, 10);
    if (end == cursor) break;
    if (pid > 0) pids.push_back(static_cast<pid_t>(pid));
    cursor = end;
    while (*cursor == '\n' || *cursor == ' ') ++cursor;
  }
  return pids;
}

bool cgroup_empty(const std::string& dir) {
  std::string text;
  return read_small_file(dir + "/cgroup.procs", text) &&
         text.find_first_not_of(" \n") == std::string::npos;
}

int signal_cgroup(const std::string& dir, int sig, Duration settle) {
  if (!file_exists(dir)) return 0;
  if (sig != SIGKILL) return signal_each(cgroup_pids(dir), sig);
  const SteadyClock::time_point deadline =
      SteadyClock::now() + std::chrono::milliseconds(settle.ms());
  const int listed = static_cast<int>(cgroup_pids(dir).size());
  // No process in it can fork: an empty cgroup is not frozen (each v1 freeze
  // and thaw patches the kernel's code on every CPU) nor waited for.
  if (listed == 0) return 0;
  if (file_exists(dir + "/cgroup.kill") && write_control_file(dir + "/cgroup.kill", "1").ok())
    return listed;
  const int frozen_kills = file_exists(dir + "/freezer.state") ? kill_frozen(dir, deadline) : 0;
  return frozen_kills + kill_until_empty(dir, deadline);
}

Status remove_cgroup(const std::string& dir) {
  if (::rmdir(dir.c_str()) == 0) return {};
  return errno_status("remove cgroup " + dir, errno);
}

}  // namespace allot::local
