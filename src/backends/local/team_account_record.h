// TeamAccountRecord: which Unix account each team's pods run as, recorded by
// the local backend under its data folder (DATA/state/team-accounts, 0600)
// the first time the team runs, and read back ever after, never recomputed.
// A derived name (team_account_name()) is only a first choice: two teams can
// derive the same name ("red.team" and "red-team-d604793f"), and an account
// of that name may already exist on the host for someone else.
//
// Contract:
// - load(path): the record at `path`; a missing file is an empty record; a
//   line that cannot be read is a kInvalidArgument naming the file and line
//   (never guessed around: guessing could hand one team another's account).
// - account_of(team) is the recorded account; holds(account) says whether an
//   account is recorded for any team.
// - add(team, account) records a new pair and rewrites the file atomically
//   (atomic_file.h: temporary file, fsync, rename), mode 0600. REQUIRES: the
//   team and the account are not recorded yet.
// - choose_account_name(team, is_free) is the derived name when is_free()
//   says so, else the derived name with "-2", "-3", ... (cut to fit 32
//   characters); kResourceExhausted when no candidate is free.
// - File format: a comment line, then "ACCOUNT TEAM" per line, the team name
//   percent-encoded outside [A-Za-z0-9._-] (so any name fits on one line).
// Thread-compatible; TeamIdentities serialises its use.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/result.h"
#include "base/status.h"

namespace allot::local {

class TeamAccountRecord {
 public:
  static Result<TeamAccountRecord> load(std::string path);

  [[nodiscard]] std::optional<std::string> account_of(std::string_view team) const;
  [[nodiscard]] bool holds(std::string_view account) const;
  Status add(const std::string& team, const std::string& account);

  // The text form, and back (kInvalidArgument naming `origin` and the line).
  [[nodiscard]] static std::string encode(const std::map<std::string, std::string>& accounts);
  static Result<std::map<std::string, std::string>> decode(std::string_view text,
                                                           const std::string& origin);

 private:
  TeamAccountRecord(std::string path, std::map<std::string, std::string> accounts);

  std::string path_;
  std::map<std::string, std::string, std::less<>> accounts_;  // team -> account
};

Result<std::string> choose_account_name(std::string_view team,
                                        const std::function<bool(const std::string&)>& is_free);

}  // namespace allot::local
