// DataDirLock: one allotd per data folder. allotd takes an exclusive
// flock(2) on DATA/allotd.lock before it opens its store there, and keeps it
// until it exits (the kernel lets go of it at any end, kill -9 included). A
// second allotd on the same folder is refused at start with a message that
// names the folder: two would append to one audit chain, run two admission
// loops over one SQLite file, and share the local backend's folders.
// With a PostgreSQL store the leadership lock decides who serves, and
// standbys may share the leader's folder: allotd takes no DataDirLock there.
#pragma once

#include <string>

#include "base/result.h"

namespace allot::app {

class DataDirLock {
 public:
  // kFailedPrecondition when another process holds the folder's lock;
  // kInternal when the lock file cannot be opened or locked.
  static Result<DataDirLock> acquire(const std::string& data_dir);

  DataDirLock(DataDirLock&& other) noexcept;
  DataDirLock& operator=(DataDirLock&& other) noexcept;
  DataDirLock(const DataDirLock&) = delete;
  DataDirLock& operator=(const DataDirLock&) = delete;
  ~DataDirLock();

 private:
  explicit DataDirLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace allot::app
