#include "backends/local/unix_accounts.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include "backends/local/command_runner.h"
#include "backends/local/errno_status.h"

namespace allot::local {
namespace {

constexpr int kNameInUseExitCode = 9;      // groupadd/useradd: the name already exists
constexpr int kNoSuchAccountExitCode = 6;  // userdel/groupdel: no account of that name
constexpr int kAccountInUseExitCode = 8;  // userdel: logged in / running; groupdel: a primary group
constexpr Duration kAccountToolTimeout = Duration::seconds(30);
const std::vector<std::string> kToolEnv = {"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C"};

std::vector<char> lookup_buffer() {
  const long size = ::sysconf(_SC_GETPW_R_SIZE_MAX);
  return std::vector<char>(size > 0 ? static_cast<size_t>(size) * 4 : 65536);
}

// The name of group `gid`, or "" when it has none.
std::string group_name(gid_t gid, std::vector<char>& buffer) {
  group entry{};
  group* found = nullptr;
  if (::getgrgid_r(gid, &entry, buffer.data(), buffer.size(), &found) == 0 && found != nullptr) {
    return found->gr_name;
  }
  return "";
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

// Runs userdel/groupdel; ok when the account is gone (also when it already was).
Status run_removal_tool(const std::vector<std::string>& argv, std::string_view in_use) {
  ALLOT_ASSIGN_OR_RETURN(const CommandOutcome outcome,
                         run_command(argv, kToolEnv, kAccountToolTimeout));
  if (outcome.succeeded() ||
      (outcome.exit_code == kNoSuchAccountExitCode && outcome.signal == 0 && !outcome.timed_out)) {
    return {};
  }
  std::string why = outcome.first_line();
  if (outcome.exit_code == kAccountInUseExitCode && !outcome.timed_out) {
    why = std::string(in_use) + (why.empty() ? "" : " (" + why + ")");
  }
  if (why.empty())
    why = outcome.timed_out ? "timed out" : "exit code " + std::to_string(outcome.exit_code);
  return {ErrorCode::kFailedPrecondition, argv[0] + " " + argv.back() + " failed: " + why};
}

}  // namespace

Result<gid_t> find_group(const std::string& name) {
  std::vector<char> buffer = lookup_buffer();
  group entry{};
  group* found = nullptr;
  const int err = ::getgrnam_r(name.c_str(), &entry, buffer.data(), buffer.size(), &found);
  if (err != 0) return errno_status("getgrnam " + name, err);
  if (found == nullptr) return not_found("no group " + name);
  return found->gr_gid;
}

Result<UnixAccount> find_user(const std::string& user) {
  std::vector<char> buffer = lookup_buffer();
  passwd entry{};
  passwd* found = nullptr;
  const int err = ::getpwnam_r(user.c_str(), &entry, buffer.data(), buffer.size(), &found);
  if (err != 0) return errno_status("getpwnam " + user, err);
  if (found == nullptr) return not_found("no user " + user);
  const uid_t uid = found->pw_uid;
  const gid_t gid = found->pw_gid;
  std::string home = found->pw_dir != nullptr ? found->pw_dir : "";
  return UnixAccount{user, group_name(gid, buffer), uid, gid, std::move(home)};
}

bool host_has_account(const std::string& name) {
  const Result<gid_t> group = find_group(name);
  if (group.ok() || group.status().code() != ErrorCode::kNotFound) return true;
  const Result<UnixAccount> user = find_user(name);
  return user.ok() || user.status().code() != ErrorCode::kNotFound;
}

UnixAccount current_account() {
  UnixAccount account{"", "", ::getuid(), ::getgid(), ""};
  std::vector<char> buffer = lookup_buffer();
  passwd entry{};
  passwd* found = nullptr;
  if (::getpwuid_r(account.uid, &entry, buffer.data(), buffer.size(), &found) == 0 &&
      found != nullptr) {
    account.user = found->pw_name;
    account.home = found->pw_dir != nullptr ? found->pw_dir : "";
  } else {
    account.user = std::to_string(account.uid);
  }
  account.group = group_name(account.gid, buffer);
  return account;
}

Result<gid_t> ensure_group(const std::string& name) {
  Result<gid_t> found = find_group(name);
  if (found.ok() || found.status().code() != ErrorCode::kNotFound) return found;
  const Status created = run_account_tool({"groupadd", "--system", name});
  found = find_group(name);
  return found.ok() || created.ok() ? found : Result<gid_t>(created);
}

Result<UnixAccount> ensure_user(const std::string& name, gid_t gid, const std::string& home) {
  Result<UnixAccount> found = find_user(name);
  if (found.ok() || found.status().code() != ErrorCode::kNotFound) return found;
  const Status created =
      run_account_tool({"useradd", "--system", "--gid", std::to_string(gid), "--home-dir", home,
                        "--no-create-home", "--shell", "/usr/sbin/nologin", name});
  found = find_user(name);  // it may also have been created by someone else meanwhile
  return found.ok() || created.ok() ? found : Result<UnixAccount>(created);
}

Status remove_user(const std::string& name) {
  return run_removal_tool({"userdel", name}, "it still runs processes");
}

Status remove_group(const std::string& name) {
  return run_removal_tool({"groupdel", name}, "it is still a user's primary group");
}

std::mutex& account_creation_mutex() {
  static std::mutex mu;
  return mu;
}

}  // namespace allot::local
