#include "backends/local/team_account_record.h"

#include <cstdio>
#include <string>
#include <utility>

#include "backends/local/atomic_file.h"
#include "backends/local/team_identity.h"

namespace allot::local {
namespace {

constexpr std::string_view kHeader = "# allot team accounts v1: ACCOUNT TEAM (percent-encoded)";
constexpr size_t kMaxRecordBytes = size_t{64} << 20;
constexpr size_t kMaxAccountName = 32;
constexpr int kMaxSuffix = 1000;
constexpr mode_t kRecordMode = 0600;

bool is_plain(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-';
}

std::string percent_encode(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (is_plain(c)) {
      out += c;
      continue;
    }
    char escaped[4];
    std::snprintf(escaped, sizeof(escaped), "%%%02X", static_cast<unsigned char>(c));
    out += escaped;
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

std::optional<std::string> percent_decode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    const int high = hex_value(text[i + 1]);
    const int low = hex_value(text[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

}  // namespace

TeamAccountRecord::TeamAccountRecord(std::string path, std::map<std::string, std::string> accounts)
    : path_(std::move(path)), accounts_(accounts.begin(), accounts.end()) {}

Result<TeamAccountRecord> TeamAccountRecord::load(std::string path) {
  Result<std::string> text = read_whole_file(path, kMaxRecordBytes);
  if (!text.ok() && text.status().code() == ErrorCode::kNotFound) {
    return TeamAccountRecord(std::move(path), {});
  }
  if (!text.ok()) return text.status();
  ALLOT_ASSIGN_OR_RETURN(auto accounts, decode(*text, path));
  return TeamAccountRecord(std::move(path), std::move(accounts));
}

std::optional<std::string> TeamAccountRecord::account_of(std::string_view team) const {
  const auto it = accounts_.find(team);
  if (it == accounts_.end()) return std::nullopt;
  return it->second;
}

bool TeamAccountRecord::holds(std::string_view account) const {
  for (const auto& [team, recorded] : accounts_) {
    if (recorded == account) return true;
  }
  return false;
}

Status TeamAccountRecord::add(const std::string& team, const std::string& account) {
  std::map<std::string, std::string> next(accounts_.begin(), accounts_.end());
  next.emplace(team, account);
  ALLOT_RETURN_IF_ERROR(write_file_atomically(path_, encode(next), kRecordMode));
  accounts_.emplace(team, account);
  return {};
}

std::string TeamAccountRecord::encode(const std::map<std::string, std::string>& accounts) {
  std::string out(kHeader);
  out += '\n';
  for (const auto& [team, account] : accounts) out += account + " " + percent_encode(team) + "\n";
  return out;
}

Result<std::map<std::string, std::string>> TeamAccountRecord::decode(std::string_view text,
                                                                     const std::string& origin) {
  std::map<std::string, std::string> accounts;
  std::map<std::string, std::string> teams_by_account;
  size_t line_number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (line.empty() || line.starts_with('#')) continue;
    const auto bad = [&](const std::string& why) {
      std::string where = origin;
      where += ":" + std::to_string(line_number) + ": ";
      return Status(ErrorCode::kInvalidArgument, where + why);
    };
    const size_t space = line.find(' ');
    if (space == std::string_view::npos || space == 0) return bad("expected 'ACCOUNT TEAM'");
    const std::string account(line.substr(0, space));
    const std::optional<std::string> team = percent_decode(line.substr(space + 1));
    if (!team.has_value()) return bad("bad percent-encoding in the team name");
    if (accounts.contains(*team)) return bad("team '" + *team + "' is recorded twice");
    if (!teams_by_account.emplace(account, *team).second) {
      return bad("account " + account + " is recorded for two teams");
    }
    accounts.emplace(*team, account);
  }
  return accounts;
}

Result<std::string> choose_account_name(std::string_view team,
                                        const std::function<bool(const std::string&)>& is_free) {
  const std::string derived = team_account_name(team);
  if (is_free(derived)) return derived;
  for (int suffix = 2; suffix <= kMaxSuffix; ++suffix) {
    const std::string tail = "-" + std::to_string(suffix);
    const std::string candidate = derived.substr(0, kMaxAccountName - tail.size()) + tail;
    if (is_free(candidate)) return candidate;
  }
  return Status(ErrorCode::kResourceExhausted,
                "no free Unix account name for team '" + std::string(team) + "' (" + derived +
                    " and " + std::to_string(kMaxSuffix - 1) + " suffixed names are taken)");
}

}  // namespace allot::local
