#include "backends/local/user_identity.h"

#include <algorithm>
#include <string>
#include <utility>

#include "backends/local/account_record.h"
#include "backends/local/team_identity.h"

namespace allot::local {
namespace {

constexpr size_t kMaxUserAccountName = 32;
constexpr std::string_view kUserAccountPrefix = "allot-";
constexpr std::string_view kServiceAccountPrefix = "system:serviceaccount:";
constexpr size_t kHashLength = 8;

// The user part of the name; `faithful` as account_name_part() says it.
std::string user_part(std::string_view team, std::string_view user, bool& faithful) {
  if (user.starts_with(kServiceAccountPrefix)) {
    const std::string_view rest = user.substr(kServiceAccountPrefix.size());
    const size_t colon = rest.find(':');
    if (colon != std::string_view::npos) {
      const std::string_view ns = rest.substr(0, colon);
      const std::string mapped = account_name_part(rest.substr(colon + 1), faithful);
      faithful = faithful && ns == team;
      return "sa_" + mapped;
    }
  }
  return account_name_part(user, faithful);
}

}  // namespace

std::string user_account_name(std::string_view team, std::string_view user) {
  bool team_faithful = false;
  bool user_faithful = false;
  std::string team_mapped = account_name_part(team, team_faithful);
  std::string user_mapped = user_part(team, user, user_faithful);
  const std::string name = std::string(kUserAccountPrefix) + team_mapped + "_" + user_mapped;
  if (team_faithful && user_faithful && name.size() <= kMaxUserAccountName) return name;
  // Room for both parts beside the prefix, the '_', and "-<hash>".
  const size_t room = kMaxUserAccountName - kUserAccountPrefix.size() - 1 - 1 - kHashLength;
  const size_t team_room =
      std::min(team_mapped.size(), std::max(room / 2, room - std::min(room, user_mapped.size())));
  team_mapped.resize(team_room);
  user_mapped.resize(std::min(user_mapped.size(), room - team_room));
  std::string pair(team);
  pair += '\0';
  pair += user;
  return std::string(kUserAccountPrefix) + team_mapped + "_" + user_mapped +
         (user_mapped.empty() ? "" : "-") + account_name_hash(pair);
}

UserIdentities::UserIdentities(DataLayout layout) : layout_(std::move(layout)) {}

Result<UnixAccount> UserIdentities::ensure(std::string_view team, std::string_view user,
                                           const UnixAccount& team_account) {
  std::pair<std::string, std::string> key{std::string(team), std::string(user)};
  std::lock_guard lock(mu_);
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  std::lock_guard creation_lock(account_creation_mutex());
  ALLOT_ASSIGN_OR_RETURN(const std::string name, recorded_name(key.first, key.second));
  ALLOT_ASSIGN_OR_RETURN(UnixAccount account,
                         ensure_user(name, team_account.gid, layout_.user_home_dir(team, name)));
  account.group = team_account.group;
  account.gid = team_account.gid;
  cache_.emplace(std::move(key), account);
  return account;
}

Result<std::string> UserIdentities::recorded_name(const std::string& team,
                                                  const std::string& user) {
  ALLOT_RETURN_IF_ERROR(layout_.prepare_state_dir());
  ALLOT_ASSIGN_OR_RETURN(AccountRecord record,
                         AccountRecord::load(layout_.user_accounts_path(), kUserAccountsFormat));
  const AccountKey key{team, user};
  if (std::optional<std::string> recorded = record.account_of(key)) return *std::move(recorded);
  ALLOT_ASSIGN_OR_RETURN(std::string name,
                         choose_account_name(user_account_name(team, user),
                                             "user '" + user + "' of team '" + team + "'",
                                             [&record](const std::string& candidate) {
                                               return !record.holds(candidate) &&
                                                      !host_has_account(candidate);
                                             }));
  ALLOT_RETURN_IF_ERROR(record.add(key, name));
  return name;
}

}  // namespace allot::local
