#include "bench/chaos_pods.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <filesystem>
#include <map>
#include <string_view>

#include <fcntl.h>
#include <unistd.h>

namespace allot::bench {
namespace {

// The whole of a /proc file (their sizes read as 0); empty when unreadable.
std::string read_all(const std::string& path) {
  std::string out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    out.append(buffer, static_cast<size_t>(got));
  }
  ::close(fd);
  return out;
}

// The state letter of /proc/PID/stat ('R', 'S', 'Z', ...); 0 when gone.
char state_of(const std::string& pid) {
  const std::string stat = read_all("/proc/" + pid + "/stat");
  const size_t paren = stat.rfind(')');
  return paren == std::string::npos || paren + 2 >= stat.size() ? 0 : stat[paren + 2];
}

// The ALLOT_* variables of a NUL-separated environment block.
std::map<std::string, std::string, std::less<>> allot_env(std::string_view block) {
  std::map<std::string, std::string, std::less<>> out;
  while (!block.empty()) {
    const size_t end = std::min(block.find('\0'), block.size());
    const std::string_view entry = block.substr(0, end);
    const size_t eq = entry.find('=');
    if (entry.starts_with("ALLOT_") && eq != std::string_view::npos) {
      out.emplace(entry.substr(0, eq), entry.substr(eq + 1));
    }
    block.remove_prefix(std::min(end + 1, block.size()));
  }
  return out;
}

template <typename Int>
bool parse_int(const std::string& text, Int& out) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

std::vector<PodProcess> scan_pod_processes(const std::string& data_dir) {
  std::vector<PodProcess> pods;
  const std::string prefix = data_dir + "/";
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string pid = entry.path().filename().string();
    if (pid.empty() || !std::isdigit(static_cast<unsigned char>(pid[0]))) continue;
    const auto env = allot_env(read_all("/proc/" + pid + "/environ"));
    const auto shared = env.find("ALLOT_SHARED_DIR");
    const auto id = env.find("ALLOT_WORKLOAD_ID");
    const auto index = env.find("ALLOT_POD_INDEX");
    if (shared == env.end() || id == env.end() || index == env.end()) continue;
    if (!shared->second.starts_with(prefix)) continue;
    const char state = state_of(pid);
    if (state == 0 || state == 'Z' || state == 'X') continue;
    PodProcess pod;
    if (!parse_int(pid, pod.pid) || !parse_int(id->second, pod.workload_id) ||
        !parse_int(index->second, pod.pod_index)) {
      continue;
    }
    const auto ns = env.find("ALLOT_NAMESPACE");
    const auto name = env.find("ALLOT_WORKLOAD");
    pod.ns = ns == env.end() ? "" : ns->second;
    pod.name = name == env.end() ? "" : name->second;
    pods.push_back(std::move(pod));
  }
  return pods;
}

}  // namespace allot::bench
