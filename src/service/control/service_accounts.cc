#include "service/control/service_accounts.h"

#include <algorithm>
#include <charconv>
#include <utility>

#include <nlohmann/json.hpp>

#include "api/dns_label.h"
#include "identity/credentials/api_token.h"
#include "service/control/caller_rights.h"

namespace allot {
namespace {

constexpr std::string_view kAccounts = "serviceaccounts";
constexpr std::string_view kTokens = "serviceaccounts/token";

std::string object_name(const std::string& namespace_name, const std::string& name) {
  return namespace_name + "/" + name;
}

std::string account_text(const std::string& namespace_name, const std::string& name) {
  return "service account '" + object_name(namespace_name, name) + "'";
}

// The number at the end of a token id ("vision.ci.12" -> 12), for ordering.
uint64_t token_number(std::string_view id) {
  const size_t dot = id.rfind('.');
  uint64_t number = 0;
  if (dot == std::string_view::npos) return number;
  std::from_chars(id.data() + dot + 1, id.data() + id.size(), number);
  return number;
}

Status check_lifetime(Duration lifetime) {
  if (lifetime < kShortestTokenLifetime || lifetime > kLongestTokenLifetime) {
    return invalid_argument(
        "a token's lifetime is 10 minutes to 3650 days, not " + lifetime.to_string(),
        "expirationSeconds");
  }
  return {};
}

Status check_names(const std::string& namespace_name, const std::string& name) {
  ALLOT_RETURN_IF_ERROR(check_dns_label(namespace_name, "namespace"));
  return check_dns_label(name, "name");
}

}  // namespace

std::string service_account_subject(std::string_view namespace_name, std::string_view name) {
  return "system:serviceaccount:" + std::string(namespace_name) + ":" + std::string(name);
}

Status ServiceAccounts::load(const std::vector<ObjectRecord>& objects) {
  MutexLock lock(mu_);
  for (const ObjectRecord& object : objects) {
    if (!is_service_account_kind(object.kind)) continue;
    const nlohmann::json json = nlohmann::json::parse(object.document, nullptr, false);
    const auto bad = [&] {
      return Status(ErrorCode::kInternal,
                    "the stored service account '" + object.name + "' is malformed");
    };
    if (!json.is_object()) return bad();
    try {
      Key key{json.at("namespace").get<std::string>(), json.at("name").get<std::string>()};
      Account account{Timestamp::from_millis(json.at("createdAtMs").get<int64_t>()),
                      json.at("tokensIssued").get<uint64_t>()};
      accounts_[std::move(key)] = account;
    } catch (const nlohmann::json::exception&) {
      return bad();
    }
  }
  return {};
}

ObjectRecord ServiceAccounts::record_of(const Key& key, const Account& account) {
  const nlohmann::json json = {{"namespace", key.first},
                               {"name", key.second},
                               {"createdAtMs", account.created_at.ms()},
                               {"tokensIssued", account.tokens_issued}};
  return {std::string(kServiceAccountKind), object_name(key.first, key.second), json.dump()};
}

Result<ServiceAccounts::Account> ServiceAccounts::find(const Key& key) const {
  const auto it = accounts_.find(key);
  if (it == accounts_.end()) {
    return not_found("no " + account_text(key.first, key.second) + " exists",
                     object_name(key.first, key.second));
  }
  return it->second;
}

Status ServiceAccounts::check_team(const std::string& namespace_name) const {
  const CommittedRead read(cluster_);
  if (cluster_.view().policy.policy().find_team_by_namespace(namespace_name) != nullptr) return {};
  return not_found("no team has the namespace '" + namespace_name + "'", namespace_name);
}

ServiceAccountView ServiceAccounts::view_of(const Key& key, const Account& account) const {
  ServiceAccountView view{key.first,
                          key.second,
                          service_account_subject(key.first, key.second),
                          account.created_at,
                          {}};
  const Timestamp now = clock_.now();
  for (const identity::ApiTokenRecord& record : access_.api_tokens_of(view.subject)) {
    view.tokens.push_back({record.id, record.created_at, record.expires_at,
                           record.expires_at.has_value() && *record.expires_at <= now});
  }
  std::sort(view.tokens.begin(), view.tokens.end(),
            [](const auto& a, const auto& b) { return token_number(a.id) < token_number(b.id); });
  return view;
}

Result<ServiceAccountView> ServiceAccounts::create(const Principal& caller,
                                                   const std::string& namespace_name,
                                                   const std::string& name) {
  ALLOT_RETURN_IF_ERROR(check_names(namespace_name, name));
  ALLOT_RETURN_IF_ERROR(access_.authorize(caller, "create", kAccounts, namespace_name, name));
  // The team stays until the account is stored (namespace_contents.h).
  const SubmitHold team_stays(cluster_.policy_gate());
  MutexLock lock(mu_);
  ALLOT_RETURN_IF_ERROR(check_team(namespace_name));
  Key key{namespace_name, name};
  if (accounts_.contains(key)) {
    return Status(ErrorCode::kAlreadyExists, account_text(namespace_name, name) + " already exists",
                  object_name(namespace_name, name));
  }
  const Account account{clock_.now(), 0};
  WriteBatch batch;
  batch.put_objects.push_back(record_of(key, account));
  ALLOT_RETURN_IF_ERROR(cluster_.store().commit(std::move(batch)));
  accounts_[key] = account;
  return view_of(key, account);
}

Result<ServiceAccountView> ServiceAccounts::get(const Principal& caller,
                                                const std::string& namespace_name,
                                                const std::string& name) const {
  ALLOT_RETURN_IF_ERROR(access_.authorize(caller, "get", kAccounts, namespace_name, name));
  MutexLock lock(mu_);
  const Key key{namespace_name, name};
  ALLOT_ASSIGN_OR_RETURN(const Account account, find(key));
  return view_of(key, account);
}

Result<std::vector<ServiceAccountView>> ServiceAccounts::list(
    const Principal& caller, const std::string& namespace_name) const {
  WorkloadQuery query;
  query.namespace_name = namespace_name;
  ALLOT_ASSIGN_OR_RETURN(const VisibleNamespaces visible,
                         visible_namespaces(access_, caller, kAccounts, query));
  std::vector<ServiceAccountView> out;
  MutexLock lock(mu_);
  for (const auto& [key, account] : accounts_) {
    if (visible.contains(key.first)) out.push_back(view_of(key, account));
  }
  return out;
}

Status ServiceAccounts::delete_account(const Principal& caller, const std::string& namespace_name,
                                       const std::string& name) {
  ALLOT_RETURN_IF_ERROR(access_.authorize(caller, "delete", kAccounts, namespace_name, name));
  MutexLock lock(mu_);
  const Key key{namespace_name, name};
  ALLOT_RETURN_IF_ERROR(find(key).status());
  std::vector<std::string> revoked;
  for (const identity::ApiTokenRecord& record :
       access_.api_tokens_of(service_account_subject(namespace_name, name))) {
    revoked.push_back(record.id);
  }
  WriteBatch batch;
  batch.delete_objects.push_back(
      {std::string(kServiceAccountKind), object_name(namespace_name, name)});
  ALLOT_RETURN_IF_ERROR(access_.commit_api_tokens(std::move(batch), {}, revoked));
  accounts_.erase(key);
  return {};
}

Result<IssuedToken> ServiceAccounts::issue_token(const Principal& caller,
                                                 const std::string& namespace_name,
                                                 const std::string& name,
                                                 std::optional<Duration> lifetime) {
  ALLOT_RETURN_IF_ERROR(access_.authorize(caller, "create", kTokens, namespace_name, name));
  if (lifetime) ALLOT_RETURN_IF_ERROR(check_lifetime(*lifetime));
  MutexLock lock(mu_);
  const Key key{namespace_name, name};
  ALLOT_ASSIGN_OR_RETURN(Account account, find(key));
  const std::string subject = service_account_subject(namespace_name, name);
  if (access_.api_tokens_of(subject).size() >= kMaxTokensPerAccount) {
    return failed_precondition(account_text(namespace_name, name) + " has " +
                                   std::to_string(kMaxTokensPerAccount) +
                                   " tokens, the most it may hold: revoke one first",
                               object_name(namespace_name, name));
  }
  account.tokens_issued += 1;
  const Timestamp now = clock_.now();
  identity::IssuedApiToken issued = identity::issue_api_token(
      namespace_name + "." + name + "." + std::to_string(account.tokens_issued), subject,
      {"system:serviceaccounts", "system:serviceaccounts:" + namespace_name}, now,
      lifetime ? std::optional<Timestamp>(now + *lifetime) : std::nullopt);
  WriteBatch batch;
  batch.put_objects.push_back(record_of(key, account));
  ALLOT_RETURN_IF_ERROR(access_.commit_api_tokens(std::move(batch), {issued.record}, {}));
  accounts_[key] = account;
  const identity::ApiTokenRecord& record = issued.record;
  return IssuedToken{
      namespace_name, name,
      ServiceAccountTokenView{record.id, record.created_at, record.expires_at, false},
      std::move(issued.token)};
}

Result<std::vector<ServiceAccountTokenView>> ServiceAccounts::tokens(
    const Principal& caller, const std::string& namespace_name, const std::string& name) const {
  ALLOT_RETURN_IF_ERROR(access_.authorize(caller, "get", kTokens, namespace_name, name));
  MutexLock lock(mu_);
  const Key key{namespace_name, name};
  ALLOT_ASSIGN_OR_RETURN(const Account account, find(key));
  return view_of(key, account).tokens;
}

Status ServiceAccounts::revoke_token(const Principal& caller, const std::string& namespace_name,
                                     const std::string& name, const std::string& id) {
  ALLOT_RETURN_IF_ERROR(access_.authorize(caller, "delete", kTokens, namespace_name, name));
  MutexLock lock(mu_);
  ALLOT_RETURN_IF_ERROR(find({namespace_name, name}).status());
  const std::vector<identity::ApiTokenRecord> held =
      access_.api_tokens_of(service_account_subject(namespace_name, name));
  if (std::none_of(held.begin(), held.end(), [&](const auto& record) { return record.id == id; })) {
    // A token pasted where its id belongs is not repeated back.
    const std::string shown = identity::is_api_token(id) ? "(a token, not an id)" : id;
    return not_found(account_text(namespace_name, name) + " has no token '" + shown + "'", shown);
  }
  return access_.commit_api_tokens(WriteBatch{}, {}, {id});
}

std::optional<std::string> ServiceAccounts::first_object_in(
    const std::string& namespace_name) const {
  MutexLock lock(mu_);
  const auto it = accounts_.lower_bound({namespace_name, ""});
  if (it == accounts_.end() || it->first.first != namespace_name) return std::nullopt;
  return account_text(it->first.first, it->first.second);
}

}  // namespace allot
