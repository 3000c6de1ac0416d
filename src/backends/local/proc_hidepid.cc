#include "backends/local/proc_hidepid.h"

#include <cerrno>
#include <optional>
#include <string>
#include <vector>

#include <sys/mount.h>

#include "backends/local/atomic_file.h"
#include "backends/local/errno_status.h"

namespace allot::local {
namespace {

constexpr size_t kMaxMountinfoBytes = size_t{16} << 20;

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(separator, start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool hides(std::string_view options) {
  for (const std::string_view option : split(options, ',')) {
    if (option == "hidepid=1" || option == "hidepid=2" || option == "hidepid=4" ||
        option == "hidepid=noaccess" || option == "hidepid=invisible" ||
        option == "hidepid=ptraceable") {
      return true;
    }
  }
  return false;
}

}  // namespace

Result<ProcMount> parse_proc_mount(std::string_view mountinfo) {
  std::optional<ProcMount> found;
  for (const std::string_view line : split(mountinfo, '\n')) {
    // ID PARENT MAJ:MIN ROOT MOUNT_POINT MOUNT_OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER_OPTIONS
    const std::vector<std::string_view> fields = split(line, ' ');
    size_t dash = 6;
    while (dash < fields.size() && fields[dash] != "-") ++dash;
    if (fields.size() < 6 || dash + 3 >= fields.size() || fields[4] != "/proc" ||
        fields[dash + 1] != "proc") {
      continue;
    }
    ProcMount mount;
    mount.options = std::string(fields[5]) + "," + std::string(fields[dash + 3]);
    mount.hides_other_users = hides(mount.options);
    found = mount;
  }
  if (!found.has_value()) return not_found("no procfs mounted at /proc in the mount table");
  return *found;
}

Result<ProcMount> read_proc_mount(const std::string& path) {
  ALLOT_ASSIGN_OR_RETURN(const std::string text, read_whole_file(path, kMaxMountinfoBytes));
  return parse_proc_mount(text);
}

Status remount_proc_hidepid() {
  if (::mount("proc", "/proc", "proc", MS_REMOUNT, "hidepid=invisible") == 0) return {};
  if (errno == EINVAL && ::mount("proc", "/proc", "proc", MS_REMOUNT, "hidepid=2") == 0) return {};
  return errno_status("remount /proc with hidepid=invisible", errno);
}

}  // namespace allot::local
