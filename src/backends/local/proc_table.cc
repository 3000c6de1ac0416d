#include "backends/local/proc_table.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace allot::local {
namespace {

bool read_small(const std::string& path, std::string& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buffer[1024];
  const ssize_t n = ::read(fd, buffer, sizeof(buffer) - 1);
  ::close(fd);
  if (n <= 0) return false;
  out.assign(buffer, static_cast<size_t>(n));
  return true;
}

// Fields 3 (state), 4 (ppid), 6 (session) and 22 (start time) of /proc/PID/stat.
bool parse_stat(const std::string& text, ProcEntry& entry) {
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  const size_t close = text.rfind(')');
  if (close == std::string::npos || close + 2 >= text.size()) return false;
  const char* cursor = text.c_str() + close + 2;  // field 3
  entry.zombie = *cursor == 'Z' || *cursor == 'X';
  for (int field = 3; field <= 22; ++field) {
    char* end = nullptr;
    const unsigned long long value = std::strtoull(cursor, &end, 10);
    if (field == 4) entry.parent = static_cast<pid_t>(value);
    if (field == 6) entry.session = static_cast<pid_t>(value);
    if (field == 22) {
      entry.start_ticks = value;
      return true;
    }
    const char* space = std::strchr(cursor, ' ');
    if (space == nullptr) return false;
    cursor = space + 1;
  }
  return false;
}

}  // namespace

uint64_t process_start_ticks(pid_t pid) {
  std::string text;
  ProcEntry entry;
  if (pid <= 0 || !read_small("/proc/" + std::to_string(pid) + "/stat", text) ||
      !parse_stat(text, entry)) {
    return 0;
  }
  return entry.start_ticks;
}

uint32_t audit_session_of(pid_t pid, const std::string& proc_root) {
  std::string text;
  if (!read_small(proc_root + "/" + std::to_string(pid) + "/sessionid", text)) {
    return kNoAuditSession;
  }
  char* end = nullptr;
  const unsigned long value = std::strtoul(text.c_str(), &end, 10);
  if (end == text.c_str() || value > kNoAuditSession) return kNoAuditSession;
  return static_cast<uint32_t>(value);
}

std::vector<ProcEntry> read_proc_table(const std::string& proc_root) {
  std::vector<ProcEntry> table;
  DIR* dir = ::opendir(proc_root.c_str());
  if (dir == nullptr) return table;
  while (const dirent* item = ::readdir(dir)) {
    char* end = nullptr;
    const long pid = std::strtol(item->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    ProcEntry entry;
    entry.pid = static_cast<pid_t>(pid);
    std::string stat;
    if (!read_small(proc_root + "/" + item->d_name + "/stat", stat) || !parse_stat(stat, entry)) {
      continue;
    }
    entry.audit_session = audit_session_of(entry.pid, proc_root);
    table.push_back(entry);
  }
  ::closedir(dir);
  return table;
}

std::vector<pid_t> pod_members(const std::vector<ProcEntry>& table, const PodProcessKey& who,
                               pid_t self) {
  bool leader_is_ours = true;
  for (const ProcEntry& entry : table) {
    if (entry.pid == who.leader && who.leader_start != 0 && entry.start_ticks != who.leader_start) {
      leader_is_ours = false;
    }
  }
  std::set<pid_t> members;
  for (const ProcEntry& entry : table) {
    const bool in_session = leader_is_ours && who.leader > 1 && entry.session == who.leader;
    const bool in_audit_session =
        who.audit_session != kNoAuditSession && entry.audit_session == who.audit_session;
    if (in_session || in_audit_session) members.insert(entry.pid);
  }
  std::multimap<pid_t, pid_t> children;  // parent -> child
  for (const ProcEntry& entry : table) children.emplace(entry.parent, entry.pid);
  std::vector<pid_t> frontier(members.begin(), members.end());
  while (!frontier.empty()) {
    const pid_t parent = frontier.back();
    frontier.pop_back();
    const auto [first, last] = children.equal_range(parent);
    for (auto it = first; it != last; ++it) {
      if (members.insert(it->second).second) frontier.push_back(it->second);
    }
  }
  for (const ProcEntry& entry : table) {
    if (entry.zombie) members.erase(entry.pid);
  }
  members.erase(1);
  members.erase(self);
  members.erase(0);
  return {members.begin(), members.end()};
}

}  // namespace allot::local
