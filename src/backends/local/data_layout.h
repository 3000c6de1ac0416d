// DataLayout: where the local backend keeps things under its data directory,
// and the creation of those folders with their owners and modes.
//
//   DATA/                                   0711 root (traversable, not listable)
//     teams/<team>                          0710 root:<team group> (closed to other teams)
//       shared                              2770 root:<team group> (setgid, the team's own)
//       homes                               0710 root:<team group>
//         <user account>                    0700 <user account>:<team group>
//       checkpoints                         0750 root:<team group>
//         <namespace>                       0750 root:<team group>
//           <workload>-<id>                 0770 <user>:<team group> (made before the
//                                           pod starts; kept across its runs)
//     homes/<account>                       0700 <account>:<group> (pods of no known user,
//                                           or of every user when pods do not run as them)
//     work/<namespace>/<workload>-<id>      0770 <user>:<group> (the pod's working dir)
//     logs/<id>/pod-<index>.log             0640 root:<group> in 0700 root folders
//     run/<id>-<index>.pid                  0600 root in 0700 root (see pod_pid_file.h)
//     state/team-accounts, user-accounts    0600 root in 0700 root (account_record.h)
//     allot.db, -wal, -shm                  0600 (the SQLite store, not made here)
//   every folder on the way to a pod's folders is 0711 root; everything else
//   is closed to pods (0700 / 0600). Missing parents of DATA are made 0711.
//
// Contract: names coming from manifests become single path components
// (path_component()): they can never climb out of DATA. Folders are created
// when missing and their owner and mode are (re)set every time, through
// O_NOFOLLOW descriptors, so a symlink planted in place of one is refused;
// modes are set explicitly, whatever the umask. Only the parents' owner
// (root) can create entries in the intermediate folders. Ownership changes
// are skipped when `set_owners` is false (not root).
// Thread-safe (no state beyond the root path).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <sys/types.h>

#include "base/result.h"
#include "base/status.h"

namespace allot::local {

// A safe single path component: [A-Za-z0-9._-] kept, anything else becomes
// '_'; "", "." and ".." become "_", "_." and "_..".
std::string path_component(std::string_view name);

// Who owns a pod's folders: the team's user and group.
struct DirOwner {
  uid_t uid = 0;
  gid_t gid = 0;
};

class DataLayout {
 public:
  // A relative `data_dir` is made absolute against the current folder.
  DataLayout(std::string data_dir, bool set_owners);

  [[nodiscard]] const std::string& root() const { return root_; }
  [[nodiscard]] std::string team_dir(std::string_view team) const;
  [[nodiscard]] std::string shared_dir(std::string_view team) const;
  [[nodiscard]] std::string home_dir(std::string_view user) const;
  // A submitting user's home in its team's folder (user_identity.h), named
  // after the user's recorded account (unique, where user names may not map
  // to distinct folder names).
  [[nodiscard]] std::string user_home_dir(std::string_view team, std::string_view account) const;
  [[nodiscard]] std::string work_dir(std::string_view namespace_name,
                                     std::string_view workload_name, uint64_t workload_id) const;
  // A workload's checkpoint folder, in its team's folder; the same for every
  // run of the workload (its id keeps it apart from a later namesake).
  [[nodiscard]] std::string checkpoint_dir(std::string_view team, std::string_view namespace_name,
                                           std::string_view workload_name,
                                           uint64_t workload_id) const;
  [[nodiscard]] std::string log_dir(uint64_t workload_id) const;
  [[nodiscard]] std::string log_path(uint64_t workload_id, int32_t pod_index) const;
  [[nodiscard]] std::string run_dir() const;
  [[nodiscard]] std::string pid_path(uint64_t workload_id, int32_t pod_index) const;
  // The backend's own records (account_record.h), closed to pods.
  [[nodiscard]] std::string state_dir() const;
  [[nodiscard]] std::string team_accounts_path() const;
  [[nodiscard]] std::string user_accounts_path() const;

  // Each creates (or repairs) its folder and the folders above it.
  // prepare_root() is also what allotd calls before it opens its store.
  Status prepare_root() const;
  // The team's folder and what is in it are its group's (owner.gid).
  Status prepare_shared_dir(std::string_view team, DirOwner owner) const;
  Status prepare_home_dir(std::string_view user, DirOwner owner) const;
  Status prepare_user_home_dir(std::string_view team, std::string_view account,
                               DirOwner owner) const;
  Status prepare_work_dir(std::string_view namespace_name, std::string_view workload_name,
                          uint64_t workload_id, DirOwner owner) const;
  Status prepare_log_dir(uint64_t workload_id) const;
  // checkpoint_dir(): its parents listable by the team (root:<group>, 0750),
  // the folder itself the pod's user's and the team's (0770).
  Status prepare_checkpoint_dir(std::string_view team, std::string_view namespace_name,
                                std::string_view workload_name, uint64_t workload_id,
                                DirOwner owner) const;
  Status prepare_run_dir() const;
  Status prepare_state_dir() const;  // 0700 root

  // Opens (creating) a pod's log for appending: 0640 root:<gid>, close-on-exec.
  Result<int> open_log(uint64_t workload_id, int32_t pod_index, gid_t gid) const;

 private:
  // Creates `path` when missing, then sets its owner (when set_owners_) and mode.
  Status ensure_dir(const std::string& path, mode_t mode, uid_t uid, gid_t gid) const;
  Status ensure_root_dir(const std::string& path) const;  // 0711 root
  Status prepare_team_dir(std::string_view team, gid_t gid) const;

  std::string root_;
  bool set_owners_ = true;
};

}  // namespace allot::local
