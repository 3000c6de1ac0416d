#include "app/data_dir_lock.h"

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace allot::app {

Result<DataDirLock> DataDirLock::acquire(const std::string& data_dir) {
  const std::string path = data_dir + "/allotd.lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    return Status(ErrorCode::kInternal,
                  "cannot open " + path + ": " + std::string(std::strerror(errno)));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK) {
      return Status(ErrorCode::kFailedPrecondition,
                    "another allotd is running with --data-dir " + data_dir + " (it holds " + path +
                        "); stop it first, or give this one a folder of its own");
    }
    return Status(ErrorCode::kInternal,
                  "cannot lock " + path + ": " + std::string(std::strerror(error)));
  }
  return DataDirLock(fd);
}

DataDirLock::DataDirLock(DataDirLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

DataDirLock& DataDirLock::operator=(DataDirLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

DataDirLock::~DataDirLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace allot::app
