#include "backends/local/team_identity.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include "backends/local/command_runner.h"
#include "backends/local/errno_status.h"
#include "backends/local/team_account_record.h"

namespace allot::local {
namespace {

constexpr size_t kMaxAccountName = 32;
constexpr std::string_view kPrefix = "allot-";
constexpr int kNameInUseExitCode = 9;  // groupadd/useradd: the name already exists
constexpr Duration kAccountToolTimeout = Duration::seconds(30);
const std::vector<std::string> kToolEnv = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C"};

uint32_t fnv1a(std::string_view text) {
  uint32_t hash = 2166136261U;
  for (char c : text) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 16777619U;
  }
  return hash;
}

std::vector<char> lookup_buffer() {
  const long size = ::sysconf(_SC_GETPW_R_SIZE_MAX);
  return std::vector<char>(size > 0 ? static_cast<size_t>(size) * 4 : 65536);
}

Result<gid_t> find_group(const std::string& name) {
  std::vector<char> buffer = lookup_buffer();
  group entry{};
  group* found = nullptr;
  const int err = ::getgrnam_r(name.c_str(), &entry, buffer.data(), buffer.size(), &found);
  if (err != 0) return errno_status("getgrnam " + name, err);
  if (found == nullptr) return not_found("no group " + name);
  return found->gr_gid;
}

// Runs groupadd/useradd; ok when it succeeded or the name was taken meanwhile.
Status run_account_tool(const std::vector<std::string>& argv) {
  ALLOT_ASSIGN_OR_RETURN(const CommandOutcome outcome,
                         run_command(argv, kToolEnv, kAccountToolTimeout));
  if (outcome.succeeded() || (outcome.exit_code == kNameInUseExitCode && outcome.signal == 0)) {
    return {};
  }
  std::string why = outcome.first_line();
  if (why.empty())
    why = outcome.timed_out ? "timed out" : "exit code " + std::to_string(outcome.exit_code);
  return {ErrorCode::kInternal, argv[0] + " " + argv.back() + " failed: " + why};
}

// True when a user or a group of that name exists (or cannot be looked up).
bool host_has_account(const std::string& name) {
  const Result<gid_t> group = find_group(name);
  if (group.ok() || group.status().code() != ErrorCode::kNotFound) return true;
  const Result<UnixAccount> user = find_user(name);
  return user.ok() || user.status().code() != ErrorCode::kNotFound;
}

}  // namespace

std::string team_account_name(std::string_view team) {
  std::string mapped;
  for (char c : team) {
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    const bool keep =
        (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') || lower == '-';
    mapped += keep ? lower : '-';
  }
  std::string name = std::string(kPrefix) + mapped;
  if (mapped == team && !team.empty() && name.size() <= kMaxAccountName) return name;
  char hash[9];
  std::snprintf(hash, sizeof(hash), "%08x", fnv1a(team));
  const size_t room = kMaxAccountName - kPrefix.size() - 1 - 8;
  return std::string(kPrefix) + mapped.substr(0, room) + (mapped.empty() ? "" : "-") + hash;
}

Result<UnixAccount> find_user(const std::string& user) {
  std::vector<char> buffer = lookup_buffer();
  passwd entry{};
  passwd* found = nullptr;
  const int err = ::getpwnam_r(user.c_str(), &entry, buffer.data(), buffer.size(), &found);
  if (err != 0) return errno_status("getpwnam " + user, err);
  if (found == nullptr) return not_found("no user " + user);
  UnixAccount account{user, "", found->pw_uid, found->pw_gid};
  group group_entry{};
  group* group_found = nullptr;
  if (::getgrgid_r(found->pw_gid, &group_entry, buffer.data(), buffer.size(), &group_found) == 0 &&
      group_found != nullptr) {
    account.group = group_found->gr_name;
  }
  return account;
}

UnixAccount current_account() {
  UnixAccount account{"", "", ::getuid(), ::getgid()};
  std::vector<char> buffer = lookup_buffer();
  passwd entry{};
  passwd* found = nullptr;
  if (::getpwuid_r(account.uid, &entry, buffer.data(), buffer.size(), &found) == 0 &&
      found != nullptr) {
    account.user = found->pw_name;
  } else {
    account.user = std::to_string(account.uid);
  }
  group group_entry{};
  group* group_found = nullptr;
  if (::getgrgid_r(account.gid, &group_entry, buffer.data(), buffer.size(), &group_found) == 0 &&
      group_found != nullptr) {
    account.group = group_found->gr_name;
  }
  return account;
}

TeamIdentities::TeamIdentities(DataLayout layout) : layout_(std::move(layout)) {}

Result<UnixAccount> TeamIdentities::ensure(std::string_view team) {
  std::lock_guard lock(mu_);
  if (auto it = cache_.find(team); it != cache_.end()) return it->second;
  // groupadd/useradd check that a name is free before they lock the account
  // files: two of them racing for one name both "succeed", the second
  // overwriting the first. So creation is serialised across the whole process.
  static std::mutex creation_mu;
  std::lock_guard creation_lock(creation_mu);
  ALLOT_ASSIGN_OR_RETURN(const std::string name, recorded_name(team));
  ALLOT_ASSIGN_OR_RETURN(const gid_t gid, ensure_group(name));
  ALLOT_ASSIGN_OR_RETURN(UnixAccount account, ensure_user(name, gid));
  // The pods run with the team's group even if the user's primary group differs.
  account.group = name;
  account.gid = gid;
  cache_.emplace(std::string(team), account);
  return account;
}

Result<std::string> TeamIdentities::recorded_name(std::string_view team) {
  ALLOT_RETURN_IF_ERROR(layout_.prepare_state_dir());
  ALLOT_ASSIGN_OR_RETURN(TeamAccountRecord record,
                         TeamAccountRecord::load(layout_.team_accounts_path()));
  if (std::optional<std::string> recorded = record.account_of(team)) return *std::move(recorded);
  ALLOT_ASSIGN_OR_RETURN(std::string name,
                         choose_account_name(team, [&record](const std::string& candidate) {
                           return !record.holds(candidate) && !host_has_account(candidate);
                         }));
  ALLOT_RETURN_IF_ERROR(record.add(std::string(team), name));
  return name;
}

Result<gid_t> TeamIdentities::ensure_group(const std::string& name) {
  Result<gid_t> found = find_group(name);
  if (found.ok() || found.status().code() != ErrorCode::kNotFound) return found;
  const Status created = run_account_tool({"groupadd", "--system", name});
  found = find_group(name);
  return found.ok() || created.ok() ? found : Result<gid_t>(created);
}

Result<UnixAccount> TeamIdentities::ensure_user(const std::string& name, gid_t gid) {
  Result<UnixAccount> found = find_user(name);
  if (found.ok() || found.status().code() != ErrorCode::kNotFound) return found;
  const Status created = run_account_tool({"useradd", "--system", "--gid", std::to_string(gid),
                                           "--home-dir", layout_.home_dir(name), "--no-create-home",
                                           "--shell", "/usr/sbin/nologin", name});
  found = find_user(name);  // it may also have been created by someone else meanwhile
  return found.ok() || created.ok() ? found : Result<UnixAccount>(created);
}

}  // namespace allot::local
