// TeamIdentities: the Unix user and group a team's pods run as,
// `allot-<team>`, created on demand as system accounts.
//
// Contract:
// - team_account_name(team) is "allot-" + the team name lower-cased with any
//   character outside [a-z0-9-] turned into '-', at most 32 characters. When
//   that mapping is not faithful (characters changed or the name cut short),
//   a short hash of the exact team name is appended, so two teams never share
//   an account. Deterministic: the same team gets the same account across
//   restarts and machines.
// - ensure(team) looks the group and user up (getgrnam_r/getpwnam_r) and
//   creates what is missing with `groupadd --system NAME` and `useradd
//   --system --gid NAME --home-dir HOME --no-create-home --shell
//   /usr/sbin/nologin NAME`, run as real processes. Idempotent. Creations
//   are serialised across the whole process (the tools check that a name is
//   free before locking the account files, so two racing for one name would
//   both "succeed", the second overwriting the first); the tools' own lock
//   protects creations of different names by other processes. An account
//   that exists by the time the tool runs (exit code 9) is looked up again.
//   Results are cached per instance. Needs root to create accounts.
// Thread-safe.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include <sys/types.h>

#include "base/result.h"

namespace allot::local {

struct UnixAccount {
  std::string user;
  std::string group;
  uid_t uid = 0;
  gid_t gid = 0;
};

std::string team_account_name(std::string_view team);

// Looks an existing user up by name, with its primary group.
Result<UnixAccount> find_user(const std::string& user);
// The account this process runs as.
UnixAccount current_account();

class TeamIdentities {
 public:
  // Accounts this creates get <homes_dir>/<user> as their home.
  explicit TeamIdentities(std::string homes_dir);

  Result<UnixAccount> ensure(std::string_view team);

 private:
  Result<gid_t> ensure_group(const std::string& name);
  Result<UnixAccount> ensure_user(const std::string& name, gid_t gid);

  std::string homes_dir_;
  std::mutex mu_;
  std::map<std::string, UnixAccount, std::less<>> cache_;  // guarded by mu_
};

}  // namespace allot::local
