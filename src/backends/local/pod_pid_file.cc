#include "backends/local/pod_pid_file.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include "backends/local/errno_status.h"

namespace allot::local {
namespace {

bool read_small_file(const std::string& path, std::string& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  char buffer[1024];
  const ssize_t n = ::read(fd, buffer, sizeof(buffer) - 1);
  ::close(fd);
  if (n < 0) return false;
  out.assign(buffer, static_cast<size_t>(n));
  return true;
}

struct PidRecord {
  long pid = -1;
  long pgid = -1;
  unsigned long long start = 0;
};

bool parse_record(const std::string& text, PidRecord& record) {
  return std::sscanf(text.c_str(), "%ld %ld %llu", &record.pid, &record.pgid, &record.start) == 3 &&
         record.pid > 1 && record.pgid > 1;
}

StalePod kill_one(const std::string& path) {
  StalePod stale{path, -1, false, "unreadable"};
  std::string text;
  PidRecord record;
  if (!read_small_file(path, text) || !parse_record(text, record)) return stale;
  stale.pgid = static_cast<pid_t>(record.pgid);
  // A live leader with another start time means the pid now belongs to someone
  // else; while the group exists its id cannot be reused, so otherwise it is ours.
  const uint64_t now_start = process_start_ticks(stale.pgid);
  if (now_start != 0 && record.start != 0 && now_start != record.start) {
    stale.note = "pid reused";
    return stale;
  }
  stale.killed = ::kill(-stale.pgid, SIGKILL) == 0;
  stale.note = stale.killed ? "killed" : "already gone";
  return stale;
}

}  // namespace

uint64_t process_start_ticks(pid_t pid) {
  std::string text;
  if (!read_small_file("/proc/" + std::to_string(pid) + "/stat", text)) return 0;
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  size_t pos = close + 2;  // field 3 starts here
  for (int field = 3; field < 22; ++field) {
    pos = text.find(' ', pos);
    if (pos == std::string::npos) return 0;
    ++pos;
  }
  return std::strtoull(text.c_str() + pos, nullptr, 10);
}

Status write_pod_pid_file(const std::string& path, pid_t pid) {
  const std::string temp = path + ".tmp";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return errno_status("open " + temp, errno);
  const std::string text = std::to_string(pid) + " " + std::to_string(pid) + " " +
                           std::to_string(process_start_ticks(pid)) + "\n";
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const int err = errno;
  ::close(fd);
  if (!written) return errno_status("write " + temp, err);
  if (::rename(temp.c_str(), path.c_str()) != 0) return errno_status("rename " + path, errno);
  return {};
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
  for (const std::string& path : files) {
    if (path.ends_with(".pid")) found.push_back(kill_one(path));
    ::unlink(path.c_str());
  }
  return found;
}

}  // namespace allot::local
