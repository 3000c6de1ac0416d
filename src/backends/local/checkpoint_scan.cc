#include "backends/local/checkpoint_scan.h"

#include <algorithm>
#include <cstring>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace allot::local {
namespace {

struct Scan {
  int entries_left = kMaxCheckpointScanEntries;
  std::optional<Timestamp> newest;
};

Timestamp mtime_of(const struct stat& info) {
  return Timestamp::from_millis(static_cast<int64_t>(info.st_mtim.tv_sec) * 1000 +
                                info.st_mtim.tv_nsec / 1'000'000);
}

// Walks the open folder `fd` (taking it over) at `depth`.
void walk(int fd, int depth, Scan& scan) {
  DIR* dir = ::fdopendir(fd);
  if (dir == nullptr) {
    ::close(fd);
    return;
  }
  while (scan.entries_left > 0) {
    const dirent* entry = ::readdir(dir);
    if (entry == nullptr) break;
    if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
    --scan.entries_left;
    struct stat info {};
    if (::fstatat(::dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISREG(info.st_mode)) {
      const Timestamp written = mtime_of(info);
      scan.newest = scan.newest ? std::max(*scan.newest, written) : written;
    } else if (S_ISDIR(info.st_mode) && depth < kMaxCheckpointScanDepth) {
      const int child =
          ::openat(::dirfd(dir), entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (child >= 0) walk(child, depth + 1, scan);
    }
  }
  ::closedir(dir);
}

}  // namespace

std::optional<Timestamp> newest_file_time(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  Scan scan;
  walk(fd, 1, scan);
  return scan.newest;
}

}  // namespace allot::local
