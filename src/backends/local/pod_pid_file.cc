#include "backends/local/pod_pid_file.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <utility>

#include <dirent.h>
#include <unistd.h>

#include "backends/local/atomic_file.h"
#include "backends/local/errno_status.h"

namespace allot::local {
namespace {

constexpr size_t kMaxPidFileBytes = size_t{64} * 1024;
constexpr auto kRemovalWait = std::chrono::seconds(2);
constexpr auto kRemovalStep = std::chrono::milliseconds(5);

bool read_small_file(const std::string& path, std::string& out) {
  Result<std::string> text = read_whole_file(path, 4096);
  if (!text.ok()) return false;
  out = *std::move(text);
  return true;
}

// Removes the folders of a killed pod once the kernel has let its processes go.
void remove_cgroups(const std::vector<std::string>& dirs) {
  const auto deadline = std::chrono::steady_clock::now() + kRemovalWait;
  for (const std::string& dir : dirs) {
    Status removed = remove_cgroup(dir);
    while (!removed.ok() && removed.code() != ErrorCode::kNotFound &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(kRemovalStep);  // bounded: the kills are being delivered
      removed = remove_cgroup(dir);
    }
  }
}

StalePod kill_one(const std::string& path, const std::string& boot_id) {
  StalePod stale{path, -1, false, "unreadable"};
  Result<std::pair<PodTrace, std::string>> read = read_pod_pid_file(path);
  if (!read.ok()) return stale;
  PodTrace& trace = read->first;
  stale.pgid = trace.process.leader;
  if (read->second.empty() || read->second != boot_id) {
    // Another boot (or unknown): its pids and audit sessions mean nothing now.
    if (!read->second.empty()) trace.process = PodProcessKey{};
    trace.process.audit_session = kNoAuditSession;
  }
  // A live leader with another start time means the pid now belongs to someone
  // else; while the group exists its id cannot be reused, so otherwise it is ours.
  const uint64_t now_start = process_start_ticks(trace.process.leader);
  const bool reused =
      now_start != 0 && trace.process.leader_start != 0 && now_start != trace.process.leader_start;
  if (reused) trace.process.leader = -1;
  stale.killed = signal_pod(trace, SIGKILL, true) > 0;
  remove_cgroups(trace.cgroups);
  stale.note = stale.killed ? "killed" : reused ? "pid reused" : "already gone";
  return stale;
}

}  // namespace

std::string current_boot_id() {
  std::string text;
  if (!read_small_file("/proc/sys/kernel/random/boot_id", text)) return "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

Status write_pod_pid_file(const std::string& path, const PodTrace& trace) {
  const pid_t pid = trace.process.leader;
  std::string text = std::to_string(pid) + " " + std::to_string(pid) + " " +
                     std::to_string(trace.process.leader_start) + "\n";
  if (trace.process.audit_session != kNoAuditSession) {
    text += "audit " + std::to_string(trace.process.audit_session) + "\n";
  }
  const std::string boot = current_boot_id();
  if (!boot.empty()) text += "boot " + boot + "\n";
  for (const std::string& dir : trace.cgroups) text += "cgroup " + dir + "\n";
  // A crash of allotd leaves it in the page cache; a power loss ends the pod's
  // processes and cgroups with it: no fsync (a pod's start must not wait for the disk).
  return write_file_atomically(path, text, 0600, Survives::kProcessCrash);
}

Status write_pod_pid_file(const std::string& path, pid_t pid) {
  PodTrace trace;
  trace.process.leader = pid;
  trace.process.leader_start = process_start_ticks(pid);
  return write_pod_pid_file(path, trace);
}

Result<std::pair<PodTrace, std::string>> read_pod_pid_file(const std::string& path) {
  ALLOT_ASSIGN_OR_RETURN(const std::string text, read_whole_file(path, kMaxPidFileBytes));
  long pid = -1;
  long pgid = -1;
  unsigned long long start = 0;
  if (std::sscanf(text.c_str(), "%ld %ld %llu", &pid, &pgid, &start) != 3 || pid <= 1 ||
      pgid <= 1) {
    return invalid_argument(path + ": expected 'pid pgid start_ticks' on the first line");
  }
  PodTrace trace;
  trace.process.leader = static_cast<pid_t>(pgid);
  trace.process.leader_start = start;
  std::string boot;
  size_t start_of_line = text.find('\n');
  while (start_of_line != std::string::npos && start_of_line + 1 < text.size()) {
    const size_t end = text.find('\n', start_of_line + 1);
    const std::string line = text.substr(start_of_line + 1, end - start_of_line - 1);
    start_of_line = end;
    if (line.starts_with("audit ")) {
      trace.process.audit_session =
          static_cast<uint32_t>(std::strtoul(line.c_str() + 6, nullptr, 10));
    } else if (line.starts_with("boot ")) {
      boot = line.substr(5);
    } else if (line.starts_with("cgroup /")) {
      trace.cgroups.push_back(line.substr(7));
    }
  }
  return std::make_pair(std::move(trace), std::move(boot));
}

std::vector<StalePod> kill_stale_pods(const std::string& run_dir) {
  std::vector<StalePod> found;
  DIR* dir = ::opendir(run_dir.c_str());
  if (dir == nullptr) return found;
  std::vector<std::string> files;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.ends_with(".pid") || name.ends_with(".pid.tmp")) {
      std::string path = run_dir;
      path += '/';
      path += name;
      files.push_back(std::move(path));
    }
  }
  ::closedir(dir);
  const std::string boot_id = current_boot_id();
  for (const std::string& path : files) {
    if (path.ends_with(".pid")) found.push_back(kill_one(path, boot_id));
    ::unlink(path.c_str());
  }
  return found;
}

}  // namespace allot::local
