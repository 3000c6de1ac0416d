#include "backends/local/account_record.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <utility>

#include "backends/local/atomic_file.h"

namespace allot::local {
namespace {

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

// The fields of a line separated by single spaces.
std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    const size_t space = line.find(' ', start);
    fields.push_back(line.substr(start, space - start));
    if (space == std::string_view::npos) return fields;
    start = space + 1;
  }
}

std::string key_text(const AccountKey& key) {
  std::string out;
  for (const std::string& field : key) out += (out.empty() ? "'" : " '") + field + "'";
  return out;
}

}  // namespace

AccountRecord::AccountRecord(std::string path, AccountRecordFormat format,
                             std::map<AccountKey, std::string> accounts)
    : path_(std::move(path)), format_(format), accounts_(std::move(accounts)) {}

Result<AccountRecord> AccountRecord::load(std::string path, const AccountRecordFormat& format) {
  Result<std::string> text = read_whole_file(path, kMaxRecordBytes);
  if (!text.ok() && text.status().code() == ErrorCode::kNotFound) {
    return AccountRecord(std::move(path), format, {});
  }
  if (!text.ok()) return text.status();
  ALLOT_ASSIGN_OR_RETURN(auto accounts, decode(format, *text, path));
  return AccountRecord(std::move(path), format, std::move(accounts));
}

std::optional<std::string> AccountRecord::account_of(const AccountKey& key) const {
  const auto it = accounts_.find(key);
  if (it == accounts_.end()) return std::nullopt;
  return it->second;
}

bool AccountRecord::holds(std::string_view account) const {
  for (const auto& [key, recorded] : accounts_) {
    if (recorded == account) return true;
  }
  return false;
}

Status AccountRecord::add(const AccountKey& key, const std::string& account) {
  std::map<AccountKey, std::string> next = accounts_;
  next.emplace(key, account);
  ALLOT_RETURN_IF_ERROR(write_file_atomically(path_, encode(format_, next), kRecordMode));
  accounts_ = std::move(next);
  return {};
}

std::string AccountRecord::encode(const AccountRecordFormat& format,
                                  const std::map<AccountKey, std::string>& accounts) {
  std::string out(format.header);
  out += '\n';
  for (const auto& [key, account] : accounts) {
    out += account;
    for (const std::string& field : key) out += " " + percent_encode(field);
    out += '\n';
  }
  return out;
}

Result<std::map<AccountKey, std::string>> AccountRecord::decode(const AccountRecordFormat& format,
                                                                std::string_view text,
                                                                const std::string& origin) {
  std::map<AccountKey, std::string> accounts;
  std::set<std::string, std::less<>> recorded_accounts;
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
      return Status(ErrorCode::kInvalidArgument,
                    origin + ":" + std::to_string(line_number) + ": " + why);
    };
    const std::vector<std::string_view> fields = split_fields(line);
    const bool empty_field = std::any_of(fields.begin(), fields.end(),
                                         [](std::string_view field) { return field.empty(); });
    if (fields.size() != format.key_fields + 1 || empty_field) {
      return bad(format.key_fields == 1 ? "expected 'ACCOUNT TEAM'"
                                        : "expected 'ACCOUNT TEAM USER'");
    }
    const std::string account(fields[0]);
    AccountKey key;
    for (size_t i = 1; i < fields.size(); ++i) {
      std::optional<std::string> field = percent_decode(fields[i]);
      if (!field.has_value()) return bad("bad percent-encoding in a name");
      key.push_back(*std::move(field));
    }
    if (accounts.contains(key)) return bad(key_text(key) + " is recorded twice");
    if (!recorded_accounts.insert(account).second) {
      return bad("account " + account + " is recorded twice");
    }
    accounts.emplace(std::move(key), account);
  }
  return accounts;
}

Result<std::string> choose_account_name(const std::string& derived, const std::string& owner,
                                        const std::function<bool(const std::string&)>& is_free) {
  if (is_free(derived)) return derived;
  for (int suffix = 2; suffix <= kMaxSuffix; ++suffix) {
    const std::string tail = "-" + std::to_string(suffix);
    const std::string candidate = derived.substr(0, kMaxAccountName - tail.size()) + tail;
    if (is_free(candidate)) return candidate;
  }
  return Status(ErrorCode::kResourceExhausted,
                "no free Unix account name for " + owner + " (" + derived + " and " +
                    std::to_string(kMaxSuffix - 1) + " suffixed names are taken)");
}

}  // namespace allot::local
