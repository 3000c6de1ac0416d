#include "backends/local/account_removal.h"

#include <map>
#include <mutex>
#include <string>

#include "backends/local/account_record.h"
#include "backends/local/unix_accounts.h"

namespace allot::local {
namespace {

// Removes group `name` when it is still on the host (userdel removes a user's
// group of the same name itself where login.defs says USERGROUPS_ENAB).
void remove_group_if_left(const std::string& name, bool existed, AccountRemoval& removal) {
  const Result<gid_t> group = find_group(name);
  if (!group.ok() && group.status().code() != ErrorCode::kNotFound) {
    removal.failed.push_back(name + " (group): " + group.status().message());
    return;
  }
  if (group.ok()) {
    if (const Status removed = remove_group(name); !removed.ok()) {
      removal.failed.push_back(name + " (group): " + removed.message());
      return;
    }
  }
  if (existed) removal.removed.push_back(name + " (group)");
}

// Removes user `name` when it exists with `home`; its group of the same name
// too when `with_group`.
void remove_account(const std::string& name, const std::string& home, bool with_group,
                    AccountRemoval& removal) {
  const Result<UnixAccount> user = find_user(name);
  if (!user.ok() && user.status().code() != ErrorCode::kNotFound) {
    removal.failed.push_back(name + ": " + user.status().message());
    return;
  }
  if (user.ok() && user->home != home) {
    removal.kept.push_back(name + ": its home is " + user->home + ", not this folder's " + home);
    return;
  }
  const bool group_existed = with_group && find_group(name).ok();
  if (!user.ok() && !group_existed) {
    removal.absent.push_back(name);
    return;
  }
  if (user.ok()) {
    if (const Status removed = remove_user(name); !removed.ok()) {
      removal.failed.push_back(name + ": " + removed.message());
      return;
    }
    removal.removed.push_back(name);
  }
  if (with_group) remove_group_if_left(name, group_existed, removal);
}

}  // namespace

Result<AccountRemoval> remove_recorded_accounts(const DataLayout& layout) {
  std::lock_guard creation_lock(account_creation_mutex());
  ALLOT_ASSIGN_OR_RETURN(const AccountRecord users,
                         AccountRecord::load(layout.user_accounts_path(), kUserAccountsFormat));
  ALLOT_ASSIGN_OR_RETURN(const AccountRecord teams,
                         AccountRecord::load(layout.team_accounts_path(), kTeamAccountsFormat));
  AccountRemoval removal;
  for (const auto& [key, account] : users.accounts()) {
    remove_account(account, layout.user_home_dir(key.front(), account), false, removal);
  }
  for (const auto& [key, account] : teams.accounts()) {
    remove_account(account, layout.home_dir(account), true, removal);
  }
  return removal;
}

}  // namespace allot::local
