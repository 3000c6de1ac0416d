// AccountRecord: which Unix account the local backend runs pods as, recorded
// under its data folder the first time it is needed and read back ever after,
// never recomputed. Two records use it:
//   DATA/state/team-accounts   "ACCOUNT TEAM" per line (team_identity.h)
//   DATA/state/user-accounts   "ACCOUNT TEAM USER" per line (user_identity.h)
// A derived name is only a first choice: two teams (or two users) can derive
// the same name ("red.team" and "red-team-d604793f"), and an account of that
// name may already exist on the host for someone else.
//
// Contract:
// - load(path, format): the record at `path`; a missing file is an empty
//   record; a line that cannot be read (wrong number of fields, bad
//   percent-encoding, a key or an account recorded twice) is a
//   kInvalidArgument naming the file and line (never guessed around:
//   guessing could hand one team or user another's account).
// - account_of(key) is the recorded account; holds(account) says whether an
//   account is recorded for any key.
// - add(key, account) records a new pair and rewrites the file atomically
//   (atomic_file.h: temporary file, fsync, rename), mode 0600. REQUIRES: the
//   key has format.key_fields fields; neither it nor the account is recorded.
// - choose_account_name(derived, owner, is_free) is `derived` when is_free()
//   says so, else `derived` with "-2", "-3", ... (cut to fit 32 characters);
//   kResourceExhausted naming `owner` when no candidate is free.
// - File format: a header comment line, then the account and the key's
//   fields separated by single spaces, each field percent-encoded outside
//   [A-Za-z0-9._-] (so any name fits on one line).
// Thread-compatible; TeamIdentities and UserIdentities serialise their use.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/status.h"

namespace allot::local {

// (team) or (team, user): the names an account was chosen for, exactly.
using AccountKey = std::vector<std::string>;

struct AccountRecordFormat {
  std::string_view header;  // the first line, a comment
  size_t key_fields = 1;
};

inline constexpr AccountRecordFormat kTeamAccountsFormat{
    "# allot team accounts v1: ACCOUNT TEAM (percent-encoded)", 1};
inline constexpr AccountRecordFormat kUserAccountsFormat{
    "# allot user accounts v1: ACCOUNT TEAM USER (each percent-encoded)", 2};

class AccountRecord {
 public:
  static Result<AccountRecord> load(std::string path, const AccountRecordFormat& format);

  [[nodiscard]] std::optional<std::string> account_of(const AccountKey& key) const;
  [[nodiscard]] bool holds(std::string_view account) const;
  // Every recorded pair: key -> account.
  [[nodiscard]] const std::map<AccountKey, std::string>& accounts() const { return accounts_; }
  Status add(const AccountKey& key, const std::string& account);

  // The text form, and back (kInvalidArgument naming `origin` and the line).
  [[nodiscard]] static std::string encode(const AccountRecordFormat& format,
                                          const std::map<AccountKey, std::string>& accounts);
  static Result<std::map<AccountKey, std::string>> decode(const AccountRecordFormat& format,
                                                          std::string_view text,
                                                          const std::string& origin);

 private:
  AccountRecord(std::string path, AccountRecordFormat format,
                std::map<AccountKey, std::string> accounts);

  std::string path_;
  AccountRecordFormat format_;
  std::map<AccountKey, std::string> accounts_;  // key -> account
};

Result<std::string> choose_account_name(const std::string& derived, const std::string& owner,
                                        const std::function<bool(const std::string&)>& is_free);

}  // namespace allot::local
