#include "backends/local/atomic_file.h"

#include <cerrno>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/local/errno_status.h"

namespace allot::local {
namespace {

Status write_all(int fd, const std::string& text, const std::string& path) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return errno_status("write " + path, n < 0 ? errno : EIO);
    done += static_cast<size_t>(n);
  }
  return {};
}

Status sync_dir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno_status("open " + dir, errno);
  const bool synced = ::fsync(fd) == 0;
  const int err = errno;
  ::close(fd);
  return synced ? Status() : errno_status("fsync " + dir, err);
}

}  // namespace

std::string parent_folder(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

Status write_file_atomically(const std::string& path, const std::string& text, mode_t mode,
                             Survives survives) {
  const bool sync = survives == Survives::kPowerLoss;
  const std::string temp = path + ".tmp";
  ::unlink(temp.c_str());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0) return errno_status("open " + temp, errno);
  Status status;
  if (::fchmod(fd, mode) != 0) status = errno_status("chmod " + temp, errno);  // the umask
  if (status.ok()) status = write_all(fd, text, temp);
  if (status.ok() && sync && ::fsync(fd) != 0) status = errno_status("fsync " + temp, errno);
  ::close(fd);
  if (status.ok() && ::rename(temp.c_str(), path.c_str()) != 0) {
    status = errno_status("rename " + temp + " to " + path, errno);
  }
  if (!status.ok()) {
    ::unlink(temp.c_str());
    return status;
  }
  return sync ? sync_dir(parent_folder(path)) : Status();
}

Result<std::string> read_whole_file(const std::string& path, size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno_status("open " + path, errno);
  std::string out;
  char buffer[4096];
  while (out.size() <= max_bytes) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      return errno_status("read " + path, err);
    }
    if (n == 0) break;
    out.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  if (out.size() > max_bytes) {
    return Status(ErrorCode::kInvalidArgument,
                  path + " is larger than " + std::to_string(max_bytes) + " bytes");
  }
  return out;
}

}  // namespace allot::local
