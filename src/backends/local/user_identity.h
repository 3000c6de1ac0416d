// UserIdentities: the Unix account the pods of one submitting user run as
// within one team (issue 11, "identity reaches the OS"). Each (team, user)
// has its own system account whose primary group is the team's group
// (team_identity.h): the team's shared folder (group-owned, setgid, 2770)
// stays shared inside the team, while the user's home (0700, the user's)
// is closed to the team's other users and to every other team.
//
// Contract:
// - user_account_name(team, user) is the first choice of a name:
//   "allot-<team part>_<user part>", where the team part is the team name
//   mapped as team_account_name() maps it, and the user part is the user
//   name mapped the same way, or "sa_<name part>" for a service account
//   ("system:serviceaccount:<namespace>:<name>"). The mapping is faithful
//   (the name alone says which team and user it is) when both names map
//   unchanged, a service account's namespace is the team's name, and the
//   whole fits in 32 characters; otherwise both parts are cut to 16
//   characters together and a short hash of the exact pair is appended. The
//   '_' (which no team account holds) keeps user accounts and team accounts
//   apart.
// - ensure(team, user, team_account) returns the account recorded for the
//   pair in DATA/state/user-accounts (account_record.h), choosing one as
//   TeamIdentities does (the derived name, then "-2", "-3", ...; never a
//   name recorded for another pair or existing on the host), recorded before
//   the account is made with `useradd --system --gid <team group>
//   --no-create-home --shell /usr/sbin/nologin` and
//   layout.user_home_dir(team, account) as its home. The returned account
//   has the team's group (pods run with it whatever the user's primary group
//   became). Idempotent; an unreadable record is an error; choices and
//   creations hold account_creation_mutex(); results are cached per
//   instance. REQUIRES: `user` is not empty. Needs root to create accounts.
// Thread-safe.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "backends/local/data_layout.h"
#include "backends/local/unix_accounts.h"
#include "base/result.h"

namespace allot::local {

std::string user_account_name(std::string_view team, std::string_view user);

class UserIdentities {
 public:
  explicit UserIdentities(DataLayout layout);

  Result<UnixAccount> ensure(std::string_view team, std::string_view user,
                             const UnixAccount& team_account);

 private:
  // The recorded account name of the pair, choosing and recording one if needed.
  Result<std::string> recorded_name(const std::string& team, const std::string& user);

  DataLayout layout_;
  std::mutex mu_;
  std::map<std::pair<std::string, std::string>, UnixAccount> cache_;  // guarded by mu_
};

}  // namespace allot::local
