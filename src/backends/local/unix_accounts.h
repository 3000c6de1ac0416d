// Unix accounts on this host: looking users and groups up, and creating the
// system accounts the local backend runs pods as (team_identity.h,
// user_identity.h), with groupadd/useradd run as real processes.
//
// Contract:
// - find_user(), find_group() look an existing account up by name;
//   kNotFound when there is none, another error when the lookup failed.
// - host_has_account(name): a user or a group of that name exists, or the
//   lookup failed (a name that cannot be checked is never taken as free).
// - ensure_group(name): the group's gid, running `groupadd --system NAME`
//   when it is missing. ensure_user(name, gid, home): the user, running
//   `useradd --system --gid GID --home-dir HOME --no-create-home --shell
//   /usr/sbin/nologin NAME` when it is missing. An account that appears by
//   the time the tool runs (its exit code 9: made meanwhile by someone else)
//   is looked up again. Need root to create.
// - remove_user(name), remove_group(name): `userdel NAME` / `groupdel NAME`
//   (home folders are left in place); ok when the account is gone, also when
//   it was already. userdel refuses a user that still runs processes, and
//   groupdel a group that is some user's primary group: errors that say so.
//   Need root.
// - account_creation_mutex(): held by whoever chooses and creates accounts in
//   this process. groupadd/useradd check that a name is free before they lock
//   the account files: two of them racing for one name both "succeed", the
//   second overwriting the first. The tools' own lock protects creations of
//   different names by other processes.
// Thread-safe.
#pragma once

#include <mutex>
#include <string>

#include <sys/types.h>

#include "base/result.h"

namespace allot::local {

struct UnixAccount {
  std::string user;
  std::string group;
  uid_t uid = 0;
  gid_t gid = 0;
  std::string home;  // the user's home folder in the account database (find_user)
};

// Looks an existing user up by name, with its primary group.
Result<UnixAccount> find_user(const std::string& user);
Result<gid_t> find_group(const std::string& name);
bool host_has_account(const std::string& name);
// The account this process runs as.
UnixAccount current_account();

Result<gid_t> ensure_group(const std::string& name);
Result<UnixAccount> ensure_user(const std::string& name, gid_t gid, const std::string& home);

Status remove_user(const std::string& name);
Status remove_group(const std::string& name);

std::mutex& account_creation_mutex();

}  // namespace allot::local
