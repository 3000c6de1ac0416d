#include "backends/local/cgroup_files.h"

#include <cerrno>

#include <fcntl.h>
#include <unistd.h>

#include "backends/local/errno_status.h"

namespace allot::local {

bool file_exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

bool read_small_file(const std::string& path, std::string& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  out.clear();
  char buffer[4096];
  ssize_t n = 0;
  while ((n = ::read(fd, buffer, sizeof(buffer))) > 0) out.append(buffer, static_cast<size_t>(n));
  ::close(fd);
  return n == 0;
}

Status write_control_file(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno_status("open " + path, errno);
  const ssize_t written = ::write(fd, text.data(), text.size());
  const int err = errno;
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size())) return errno_status("write " + path, err);
  return {};
}

Result<int> open_procs_file(const std::string& dir) {
  const std::string procs = dir + "/cgroup.procs";
  const int fd = ::open(procs.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno_status("open " + procs, errno);
  return fd;
}

}  // namespace allot::local
