// TeamIdentities: the Unix user and group a team's pods run as, created on
// demand as system accounts, their names recorded once per team
// (team_account_record.h) and never recomputed.
//
// Contract:
// - team_account_name(team) is the first choice of a name: "allot-" + the
//   team name lower-cased with any character outside [a-z0-9-] turned into
//   '-', at most 32 characters; when that mapping is not faithful (characters
//   changed or the name cut short), a short hash of the exact team name is
//   appended. Two teams can still derive one name ("red.team" and
//   "red-team-d604793f"): the record settles it.
// - ensure(team) returns the account recorded for the team. A team not yet
//   recorded gets the first name (team_account_name(), then "-2", "-3", ...)
//   that is neither recorded for another team nor an existing user or group
//   on the host (an account allot did not record is never adopted), recorded
//   (atomically, 0600, DATA/state/team-accounts) before the account is made.
//   Missing groups and users are created with `groupadd --system NAME` and
//   `useradd --system --gid NAME --home-dir HOME --no-create-home --shell
//   /usr/sbin/nologin NAME`, run as real processes. Idempotent; a record that
//   cannot be read is an error (no pod starts rather than one under a guessed
//   account). Creations are serialised across the whole process (the tools
//   check that a name is free before locking the account files, so two racing
//   for one name would both "succeed", the second overwriting the first); the
//   tools' own lock protects creations of different names by other
//   processes. An account that exists by the time the tool runs (exit code 9)
//   is looked up again. Results are cached per instance. Needs root to create
//   accounts.
// Thread-safe.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include <sys/types.h>

#include "backends/local/data_layout.h"
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
  // Accounts this creates get layout.home_dir(<user>) as their home; the
  // record is layout.team_accounts_path().
  explicit TeamIdentities(DataLayout layout);

  Result<UnixAccount> ensure(std::string_view team);

 private:
  // The recorded account name of `team`, choosing and recording one if needed.
  Result<std::string> recorded_name(std::string_view team);
  Result<gid_t> ensure_group(const std::string& name);
  Result<UnixAccount> ensure_user(const std::string& name, gid_t gid);

  DataLayout layout_;
  std::mutex mu_;
  std::map<std::string, UnixAccount, std::less<>> cache_;  // guarded by mu_
};

}  // namespace allot::local
