// TeamIdentities: the Unix user and group a team's pods run as, created on
// demand as system accounts, their names recorded once per team
// (account_record.h, DATA/state/team-accounts) and never recomputed. The
// team's group is also the primary group of its users' accounts
// (user_identity.h): what the team shares is group-owned.
//
// Contract:
// - team_account_name(team) is the first choice of a name: "allot-" + the
//   team name lower-cased with any character outside [a-z0-9-] turned into
//   '-', at most 32 characters; when that mapping is not faithful (characters
//   changed or the name cut short), a short hash of the exact team name is
//   appended. Two teams can still derive one name ("red.team" and
//   "red-team-d604793f"): the record settles it. A derived team name never
//   holds '_' (user accounts do, so the two never derive the same name).
// - ensure(team) returns the account recorded for the team. A team not yet
//   recorded gets the first name (team_account_name(), then "-2", "-3", ...)
//   that is neither recorded for another team nor an existing user or group
//   on the host (an account allot did not record is never adopted), recorded
//   (atomically, 0600) before the account is made. Missing groups and users
//   are created (unix_accounts.h) with DATA/homes/<account> as the home.
//   Idempotent; a record that cannot be read is an error (no pod starts
//   rather than one under a guessed account). Choices and creations hold
//   account_creation_mutex(). Results are cached per instance. Needs root to
//   create accounts.
// Thread-safe.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "backends/local/data_layout.h"
#include "backends/local/unix_accounts.h"
#include "base/result.h"

namespace allot::local {

std::string team_account_name(std::string_view team);

// Lower-cased, [a-z0-9-] kept, anything else '-'; `faithful` says whether
// nothing changed. Shared with user_identity.h.
std::string account_name_part(std::string_view name, bool& faithful);
// 8 hex digits of a 32-bit FNV-1a hash of `text`.
std::string account_name_hash(std::string_view text);

class TeamIdentities {
 public:
  // Accounts this creates get layout.home_dir(<account>) as their home; the
  // record is layout.team_accounts_path().
  explicit TeamIdentities(DataLayout layout);

  Result<UnixAccount> ensure(std::string_view team);

 private:
  // The recorded account name of `team`, choosing and recording one if needed.
  Result<std::string> recorded_name(std::string_view team);

  DataLayout layout_;
  std::mutex mu_;
  std::map<std::string, UnixAccount, std::less<>> cache_;  // guarded by mu_
};

}  // namespace allot::local
