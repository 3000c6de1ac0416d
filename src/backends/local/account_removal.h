// Removing the Unix accounts that one data folder's local backend made
// (team_identity.h, user_identity.h): what an operator runs when retiring a
// data folder, and what tests and benches run once their allotd has stopped,
// so that the accounts of folders that no longer exist do not pile up
// (`useradd --system` draws from a small range of ids, 100-999 on Debian).
//
// Contract:
// - remove_recorded_accounts(layout) reads DATA/state/user-accounts and
//   DATA/state/team-accounts (account_record.h). A record that cannot be read
//   is an error and nothing is removed.
// - It removes the users first, then the teams: each recorded account that
//   exists on the host and is this folder's, i.e. its home in the account
//   database is the one the backend gave it (layout.user_home_dir(team,
//   account) for a user's, layout.home_dir(account) for a team's). An
//   account of the name with another home was made by someone else and is
//   kept (`kept`, with the reason). After a team's user, its group of the
//   same name goes too.
// - Accounts recorded but no longer on the host are counted as `absent`.
// - A removal that fails (userdel refuses a user that still runs processes,
//   groupdel a group that is still some user's primary group) is listed in
//   `failed` with the reason; the other accounts are still removed.
// - The records and the folders stay as they are: an allotd started again on
//   the folder makes the accounts again under the recorded names, with new
//   ids (files left in the folder keep the old numeric owners).
// Holds account_creation_mutex() throughout. Needs root.
#pragma once

#include <string>
#include <vector>

#include "backends/local/data_layout.h"
#include "base/result.h"

namespace allot::local {

struct AccountRemoval {
  std::vector<std::string> removed;  // users and groups, in the order removed
  std::vector<std::string> absent;   // recorded, not on the host
  std::vector<std::string> kept;     // "NAME: why"
  std::vector<std::string> failed;   // "NAME: why"
};

Result<AccountRemoval> remove_recorded_accounts(const DataLayout& layout);

}  // namespace allot::local
