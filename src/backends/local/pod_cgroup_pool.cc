#include "backends/local/pod_cgroup_pool.h"

#include <algorithm>
#include <cerrno>
#include <string>

#include <unistd.h>

#include "backends/local/cgroup_pool.h"
#include "backends/local/cgroup_v1_pool.h"

namespace allot::local {

PodCgroupPool::~PodCgroupPool() {
  std::lock_guard lock(mu_);
  retry_pending_locked();
}

void PodCgroupPool::remove(const std::vector<std::string>& dirs) {
  std::lock_guard lock(mu_);
  pending_removal_.insert(pending_removal_.end(), dirs.begin(), dirs.end());
  retry_pending_locked();
}

void PodCgroupPool::discard(PodCgroups& made) {
  for (const int fd : made.procs_fds) ::close(fd);
  for (auto it = made.dirs.rbegin(); it != made.dirs.rend(); ++it) ::rmdir(it->c_str());
  made = {};
}

void PodCgroupPool::retry_pending_locked() {
  std::erase_if(pending_removal_, [](const std::string& dir) {
    return ::rmdir(dir.c_str()) == 0 || errno == ENOENT;
  });
}

std::unique_ptr<PodCgroupPool> open_pod_cgroups(const std::string& root) {
  std::unique_ptr<CgroupPool> v2 = CgroupPool::open(root);
  if (v2->available()) return v2;
  std::unique_ptr<CgroupV1Pool> v1 = CgroupV1Pool::open(root);
  if (v1->available()) return v1;
  return CgroupPool::disabled("no cgroup v2: " + v2->reason() + "; no cgroup v1: " + v1->reason());
}

}  // namespace allot::local
