#include "backends/local/team_identity.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>

#include "backends/local/account_record.h"

namespace allot::local {
namespace {

constexpr size_t kMaxAccountName = 32;
constexpr std::string_view kTeamAccountPrefix = "allot-";

}  // namespace

std::string account_name_part(std::string_view name, bool& faithful) {
  std::string mapped;
  mapped.reserve(name.size());
  for (char c : name) {
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    const bool keep =
        (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') || lower == '-';
    mapped += keep ? lower : '-';
  }
  faithful = mapped == name && !name.empty();
  return mapped;
}

std::string account_name_hash(std::string_view text) {
  uint32_t hash = 2166136261U;
  for (char c : text) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 16777619U;
  }
  char hex[9];
  std::snprintf(hex, sizeof(hex), "%08x", hash);
  return hex;
}

std::string team_account_name(std::string_view team) {
  bool faithful = false;
  const std::string mapped = account_name_part(team, faithful);
  std::string name = std::string(kTeamAccountPrefix) + mapped;
  if (faithful && name.size() <= kMaxAccountName) return name;
  const size_t room = kMaxAccountName - kTeamAccountPrefix.size() - 1 - 8;
  return std::string(kTeamAccountPrefix) + mapped.substr(0, room) + (mapped.empty() ? "" : "-") +
         account_name_hash(team);
}

TeamIdentities::TeamIdentities(DataLayout layout) : layout_(std::move(layout)) {}

Result<UnixAccount> TeamIdentities::ensure(std::string_view team) {
  std::lock_guard lock(mu_);
  if (auto it = cache_.find(team); it != cache_.end()) return it->second;
  std::lock_guard creation_lock(account_creation_mutex());
  ALLOT_ASSIGN_OR_RETURN(const std::string name, recorded_name(team));
  ALLOT_ASSIGN_OR_RETURN(const gid_t gid, ensure_group(name));
  ALLOT_ASSIGN_OR_RETURN(UnixAccount account, ensure_user(name, gid, layout_.home_dir(name)));
  // The pods run with the team's group even if the user's primary group differs.
  account.group = name;
  account.gid = gid;
  cache_.emplace(std::string(team), account);
  return account;
}

Result<std::string> TeamIdentities::recorded_name(std::string_view team) {
  ALLOT_RETURN_IF_ERROR(layout_.prepare_state_dir());
  ALLOT_ASSIGN_OR_RETURN(AccountRecord record,
                         AccountRecord::load(layout_.team_accounts_path(), kTeamAccountsFormat));
  const AccountKey key{std::string(team)};
  if (std::optional<std::string> recorded = record.account_of(key)) return *std::move(recorded);
  ALLOT_ASSIGN_OR_RETURN(
      std::string name,
      choose_account_name(team_account_name(team), "team '" + std::string(team) + "'",
                          [&record](const std::string& candidate) {
                            return !record.holds(candidate) && !host_has_account(candidate);
                          }));
  ALLOT_RETURN_IF_ERROR(record.add(key, name));
  return name;
}

}  // namespace allot::local
