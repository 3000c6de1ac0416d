#include "backends/local/data_layout.h"

#include <cerrno>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/local/atomic_file.h"
#include "backends/local/errno_status.h"

namespace allot::local {
namespace {

constexpr mode_t kTraversable = 0711;   // on the way to the pods' own folders
constexpr mode_t kClosed = 0700;        // allotd's alone
constexpr mode_t kTeamOnly = 0710;      // root:<team group>: traversable by the team only
constexpr mode_t kTeamListable = 0750;  // root:<team group>: listable by the team only

bool is_safe_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-';
}

// Opens an existing folder without following a symlink in its last component.
Result<int> open_dir(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno_status("open " + path, errno);
  return fd;
}

}  // namespace

std::string path_component(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) out += is_safe_char(c) ? c : '_';
  if (out.empty() || out == "." || out == "..") out.insert(out.begin(), '_');
  return out;
}

DataLayout::DataLayout(std::string data_dir, bool set_owners) : set_owners_(set_owners) {
  while (data_dir.size() > 1 && data_dir.back() == '/') data_dir.pop_back();
  if (!data_dir.starts_with('/')) {
    // Pods change folder before they start: every path they see must be absolute.
    char cwd[4096];
    if (::getcwd(cwd, sizeof(cwd)) != nullptr) data_dir = std::string(cwd) + "/" + data_dir;
  }
  root_ = std::move(data_dir);
}

std::string DataLayout::team_dir(std::string_view team) const {
  return root_ + "/teams/" + path_component(team);
}

std::string DataLayout::shared_dir(std::string_view team) const {
  return team_dir(team) + "/shared";
}

std::string DataLayout::user_home_dir(std::string_view team, std::string_view account) const {
  return team_dir(team) + "/homes/" + path_component(account);
}

std::string DataLayout::home_dir(std::string_view user) const {
  return root_ + "/homes/" + path_component(user);
}

namespace {

// "<name>-<id>", its name cut so that the folder's name fits NAME_MAX (a
// Kubernetes name may have 253 characters); the id keeps it unique.
std::string workload_folder(std::string_view workload_name, uint64_t workload_id) {
  constexpr size_t kMaxComponent = 255;  // NAME_MAX of Linux file systems
  const std::string suffix = "-" + std::to_string(workload_id);
  const std::string_view name = workload_name.substr(0, kMaxComponent - suffix.size());
  return path_component(std::string(name) + suffix);
}

}  // namespace

std::string DataLayout::work_dir(std::string_view namespace_name, std::string_view workload_name,
                                 uint64_t workload_id) const {
  return root_ + "/work/" + path_component(namespace_name) + "/" +
         workload_folder(workload_name, workload_id);
}

std::string DataLayout::checkpoint_dir(std::string_view team, std::string_view namespace_name,
                                       std::string_view workload_name, uint64_t workload_id) const {
  return team_dir(team) + "/checkpoints/" + path_component(namespace_name) + "/" +
         workload_folder(workload_name, workload_id);
}

std::string DataLayout::log_dir(uint64_t workload_id) const {
  return root_ + "/logs/" + std::to_string(workload_id);
}

std::string DataLayout::log_path(uint64_t workload_id, int32_t pod_index) const {
  return log_dir(workload_id) + "/pod-" + std::to_string(pod_index) + ".log";
}

std::string DataLayout::run_dir() const { return root_ + "/run"; }

std::string DataLayout::pid_path(uint64_t workload_id, int32_t pod_index) const {
  return run_dir() + "/" + std::to_string(workload_id) + "-" + std::to_string(pod_index) + ".pid";
}

std::string DataLayout::state_dir() const { return root_ + "/state"; }

std::string DataLayout::team_accounts_path() const { return state_dir() + "/team-accounts"; }

std::string DataLayout::user_accounts_path() const { return state_dir() + "/user-accounts"; }

Status DataLayout::ensure_dir(const std::string& path, mode_t mode, uid_t uid, gid_t gid) const {
  if (::mkdir(path.c_str(), mode & 0777) != 0 && errno != EEXIST) {
    return errno_status("mkdir " + path, errno);
  }
  ALLOT_ASSIGN_OR_RETURN(const int fd, open_dir(path));
  Status status;
  // The owner first: chown may clear the setgid bit that the mode then sets.
  if (set_owners_ && ::fchown(fd, uid, gid) != 0) status = errno_status("chown " + path, errno);
  if (status.ok() && ::fchmod(fd, mode) != 0) status = errno_status("chmod " + path, errno);
  ::close(fd);
  return status;
}

Status DataLayout::ensure_root_dir(const std::string& path) const {
  return ensure_dir(path, kTraversable, 0, 0);
}

Status DataLayout::prepare_root() const {
  // Missing parents of the data directory itself are created traversable too.
  std::string missing = root_;
  std::vector<std::string> to_create;
  struct stat info {};
  while (!missing.empty() && missing != "/" && ::stat(missing.c_str(), &info) != 0) {
    to_create.push_back(missing);
    missing = parent_folder(missing);
  }
  for (auto it = to_create.rbegin(); it != to_create.rend(); ++it) {
    if (::mkdir(it->c_str(), kTraversable) != 0) {
      if (errno == EEXIST) continue;  // made meanwhile by someone else: theirs to set
      return errno_status("mkdir " + *it, errno);
    }
    // mkdir() takes the umask off: a restrictive one (077) would shut the
    // pods out of their folders below.
    if (::chmod(it->c_str(), kTraversable) != 0) return errno_status("chmod " + *it, errno);
  }
  return ensure_root_dir(root_);
}

// Closed to other teams: they cannot even reach the folders inside.
Status DataLayout::prepare_team_dir(std::string_view team, gid_t gid) const {
  ALLOT_RETURN_IF_ERROR(ensure_root_dir(root_ + "/teams"));
  return ensure_dir(team_dir(team), kTeamOnly, 0, gid);
}

Status DataLayout::prepare_shared_dir(std::string_view team, DirOwner owner) const {
  ALLOT_RETURN_IF_ERROR(prepare_team_dir(team, owner.gid));
  return ensure_dir(shared_dir(team), 02770, 0, owner.gid);
}

Status DataLayout::prepare_user_home_dir(std::string_view team, std::string_view account,
                                         DirOwner owner) const {
  ALLOT_RETURN_IF_ERROR(prepare_team_dir(team, owner.gid));
  ALLOT_RETURN_IF_ERROR(ensure_dir(team_dir(team) + "/homes", kTeamOnly, 0, owner.gid));
  return ensure_dir(user_home_dir(team, account), 0700, owner.uid, owner.gid);
}

Status DataLayout::prepare_home_dir(std::string_view user, DirOwner owner) const {
  ALLOT_RETURN_IF_ERROR(ensure_root_dir(root_ + "/homes"));
  return ensure_dir(home_dir(user), 0700, owner.uid, owner.gid);
}

Status DataLayout::prepare_work_dir(std::string_view namespace_name, std::string_view workload_name,
                                    uint64_t workload_id, DirOwner owner) const {
  ALLOT_RETURN_IF_ERROR(ensure_root_dir(root_ + "/work"));
  const std::string work = work_dir(namespace_name, workload_name, workload_id);
  ALLOT_RETURN_IF_ERROR(ensure_root_dir(parent_folder(work)));
  return ensure_dir(work, 0770, owner.uid, owner.gid);
}

// Inside the team's folder: other teams cannot reach it; the team may list
// the checkpoint folders of its workloads.
Status DataLayout::prepare_checkpoint_dir(std::string_view team, std::string_view namespace_name,
                                          std::string_view workload_name, uint64_t workload_id,
                                          DirOwner owner) const {
  ALLOT_RETURN_IF_ERROR(prepare_team_dir(team, owner.gid));
  const std::string path = checkpoint_dir(team, namespace_name, workload_name, workload_id);
  ALLOT_RETURN_IF_ERROR(ensure_dir(team_dir(team) + "/checkpoints", kTeamListable, 0, owner.gid));
  ALLOT_RETURN_IF_ERROR(ensure_dir(parent_folder(path), kTeamListable, 0, owner.gid));
  return ensure_dir(path, 0770, owner.uid, owner.gid);
}

Status DataLayout::prepare_log_dir(uint64_t workload_id) const {
  // Closed: a pod writes its log through the descriptor it was started with.
  ALLOT_RETURN_IF_ERROR(ensure_dir(root_ + "/logs", kClosed, 0, 0));
  return ensure_dir(log_dir(workload_id), kClosed, 0, 0);
}

Status DataLayout::prepare_run_dir() const { return ensure_dir(run_dir(), kClosed, 0, 0); }

Status DataLayout::prepare_state_dir() const { return ensure_dir(state_dir(), kClosed, 0, 0); }

Result<int> DataLayout::open_log(uint64_t workload_id, int32_t pod_index, gid_t gid) const {
  const std::string path = log_path(workload_id, pod_index);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0640);
  if (fd < 0) return errno_status("open " + path, errno);
  Status status;
  if (set_owners_ && ::fchown(fd, 0, gid) != 0) status = errno_status("chown " + path, errno);
  if (status.ok() && ::fchmod(fd, 0640) != 0) status = errno_status("chmod " + path, errno);
  if (!status.ok()) {
    ::close(fd);
    return status;
  }
  return fd;
}

}  // namespace allot::local
