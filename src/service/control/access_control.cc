#include "service/control/access_control.h"

#include <algorithm>
#include <mutex>
#include <utility>

#include "authz/builtin_roles.h"
#include "authz/rule_covers.h"

namespace allot {
namespace {

constexpr std::string_view kBearerPrefix = "Bearer ";
constexpr Duration kDefaultSession = Duration::hours(8);
constexpr Duration kLongestSession = Duration::hours(12);

Status unauthenticated(std::string message) {
  return Status(ErrorCode::kUnauthenticated, std::move(message));
}

Principal principal_of(std::string subject, std::vector<std::string> groups) {
  return Principal::user(std::move(subject), std::move(groups));
}

}  // namespace

AccessControl::AccessControl(Store& store, const Clock& clock)
    : store_(store),
      clock_(clock),
      keys_(identity::SessionKeyRing::fresh(clock.now())),
      authorizer_(std::make_shared<const Authorizer>(with_builtin_roles(RbacPolicy{}))) {}

bool AccessControl::is_access_kind(std::string_view kind) {
  return kind == kApiTokenKind || kind == kSessionKeysKind;
}

Status AccessControl::load(const std::vector<ObjectRecord>& objects) {
  std::unique_lock lock(mutex_);
  bool keys_found = false;
  for (const ObjectRecord& object : objects) {
    const nlohmann::json json = nlohmann::json::parse(object.document, nullptr, false);
    if (object.kind == kApiTokenKind) {
      ALLOT_ASSIGN_OR_RETURN(identity::ApiTokenRecord record,
                             identity::api_token_record_from_json(json));
      tokens_by_hash_[record.hash] = std::move(record);
    } else if (object.kind == kSessionKeysKind) {
      ALLOT_ASSIGN_OR_RETURN(keys_, identity::SessionKeyRing::from_json(json));
      keys_found = true;
    }
  }
  // Without stored keys the fresh ring is stored with the first session.
  keys_stored_ = keys_found;
  return {};
}

Status AccessControl::store_keys_once() {
  std::unique_lock lock(mutex_);
  if (keys_stored_) return {};
  WriteBatch batch;
  batch.put_objects.push_back({std::string(kSessionKeysKind), "current", keys_.to_json().dump()});
  ALLOT_RETURN_IF_ERROR(store_.commit(std::move(batch)));
  keys_stored_ = true;
  return {};
}

Result<std::optional<std::string>> AccessControl::bootstrap_admin() {
  {
    std::shared_lock lock(mutex_);
    if (!tokens_by_hash_.empty()) return std::optional<std::string>();
  }
  identity::IssuedApiToken issued = identity::issue_api_token(
      std::string(kAdminUser), std::string(kAdminUser), {std::string(kAdminsGroup)}, clock_.now());
  ALLOT_RETURN_IF_ERROR(commit_token(issued.record));
  return std::optional<std::string>(std::move(issued.token));
}

Status AccessControl::commit_token(const identity::ApiTokenRecord& record) {
  WriteBatch batch;
  batch.put_objects.push_back(
      {std::string(kApiTokenKind), record.id, identity::api_token_record_json(record).dump()});
  ALLOT_RETURN_IF_ERROR(store_.commit(std::move(batch)));
  std::unique_lock lock(mutex_);
  std::erase_if(tokens_by_hash_, [&](const auto& entry) { return entry.second.id == record.id; });
  tokens_by_hash_[record.hash] = record;
  return {};
}

Result<std::string> AccessControl::rotate_api_token(const Principal& caller,
                                                    const std::string& id) {
  ALLOT_RETURN_IF_ERROR(authorize(caller, "update", "serviceaccounts", "", id));
  std::optional<identity::ApiTokenRecord> current;
  {
    std::shared_lock lock(mutex_);
    for (const auto& [hash, record] : tokens_by_hash_) {
      if (record.id == id) current = record;
    }
  }
  if (!current) return not_found("no API token is named '" + id + "'");
  identity::IssuedApiToken issued = identity::issue_api_token(
      current->id, current->subject, current->groups, clock_.now(), current->expires_at);
  ALLOT_RETURN_IF_ERROR(commit_token(issued.record));
  return std::move(issued.token);
}

Result<Principal> AccessControl::principal_of_token(std::string_view token) const {
  const Timestamp now = clock_.now();
  std::shared_lock lock(mutex_);
  if (identity::is_session_token(token)) {
    ALLOT_ASSIGN_OR_RETURN(identity::SessionClaims claims,
                           identity::verify_session(token, keys_, now));
    Principal principal = principal_of(std::move(claims.subject), std::move(claims.groups));
    if (!claims.team.empty()) principal.scope = SessionScope{claims.team, claims.role};
    return principal;
  }
  if (!identity::is_api_token(token)) {
    return unauthenticated("the bearer token is neither an API token nor a session token");
  }
  const auto it = tokens_by_hash_.find(identity::api_token_hash(token));
  if (it == tokens_by_hash_.end()) return unauthenticated("the API token is not valid");
  if (it->second.expires_at && *it->second.expires_at <= now) {
    return unauthenticated("the API token '" + it->second.id + "' has expired");
  }
  return principal_of(it->second.subject, it->second.groups);
}

Result<Principal> AccessControl::authenticate(std::string_view bearer) const {
  if (bearer.empty()) {
    return unauthenticated(
        "authentication required: send Authorization: Bearer TOKEN "
        "(allot login; the first administrator's token is DATA/admin-token)");
  }
  if (!bearer.starts_with(kBearerPrefix)) {
    return unauthenticated("the Authorization header must be 'Bearer TOKEN'");
  }
  ALLOT_ASSIGN_OR_RETURN(Principal principal,
                         principal_of_token(bearer.substr(kBearerPrefix.size())));
  return with_directory(std::move(principal));
}

void AccessControl::attach_directory(const DirectoryView* directory, PasswordLogin* passwords) {
  directory_ = directory;
  passwords_ = passwords;
}

Result<Principal> AccessControl::with_directory(Principal principal) const {
  if (directory_ == nullptr || principal.subject.starts_with("system:")) return principal;
  std::optional<DirectoryStanding> standing = directory_->standing(principal.subject);
  if (!standing) return principal;
  if (!standing->active) {
    return unauthenticated("the user \"" + principal.subject +
                           "\" is deactivated or no longer in the directory");
  }
  for (std::string& group : standing->groups) {
    if (std::find(principal.groups.begin(), principal.groups.end(), group) ==
        principal.groups.end()) {
      principal.groups.push_back(std::move(group));
    }
  }
  return principal;
}

Status AccessControl::check_role_held(const Principal& caller, const std::string& team,
                                      const std::string& role) const {
  const std::shared_ptr<const Authorizer> authorizer = this->authorizer();
  const std::vector<PolicyRule>* granted = authorizer->role_rules(RoleRefKind::kRole, role, team);
  if (granted == nullptr) granted = authorizer->role_rules(RoleRefKind::kClusterRole, role, "");
  if (granted == nullptr) return not_found("no role '" + role + "' exists for team '" + team + "'");
  const std::vector<PolicyRule> held = authorizer->rules_for(authorizer->resolve(caller), team);
  if (!uncovered_rules(held, *granted).empty()) {
    return Status(ErrorCode::kPermissionDenied, "User \"" + caller.subject +
                                                    "\" does not hold the role \"" + role +
                                                    "\" in team \"" + team + "\"");
  }
  return {};
}

Result<OpenedSession> AccessControl::open_session(const SessionRequest& request) {
  if (request.team.empty() != request.role.empty()) {
    return invalid_argument("a session names both a team and a role, or neither", "team");
  }
  if (!identity::is_api_token(request.token)) {
    return unauthenticated("the credential must be an API token");
  }
  ALLOT_ASSIGN_OR_RETURN(Principal caller, principal_of_token(request.token));
  std::optional<Timestamp> not_after;
  {
    std::shared_lock lock(mutex_);
    const auto it = tokens_by_hash_.find(identity::api_token_hash(request.token));
    if (it != tokens_by_hash_.end()) not_after = it->second.expires_at;
  }
  return issue_session(caller, request.team, request.role, request.lifetime, not_after);
}

Result<OpenedSession> AccessControl::open_password_session(const PasswordSessionRequest& request) {
  if (request.team.empty() != request.role.empty()) {
    return invalid_argument("a session names both a team and a role, or neither", "team");
  }
  if (passwords_ == nullptr) {
    return unauthenticated("this server has no local users (the local provider is off)");
  }
  ALLOT_ASSIGN_OR_RETURN(std::string subject,
                         passwords_->verify(request.user_name, request.password));
  return issue_session(Principal::user(std::move(subject)), request.team, request.role,
                       request.lifetime, std::nullopt);
}

Result<OpenedSession> AccessControl::issue_session(const Principal& caller, const std::string& team,
                                                   const std::string& role,
                                                   std::optional<Duration> lifetime,
                                                   std::optional<Timestamp> not_after) {
  ALLOT_ASSIGN_OR_RETURN(const Principal effective, with_directory(caller));
  if (team.empty()) {
    ALLOT_RETURN_IF_ERROR(authorize(effective, "*", "*", "", ""));
  } else {
    ALLOT_RETURN_IF_ERROR(check_role_held(effective, team, role));
  }
  ALLOT_RETURN_IF_ERROR(store_keys_once());
  const Timestamp now = clock_.now();
  const Duration length = std::min(lifetime.value_or(kDefaultSession), kLongestSession);
  // The credential's groups only: directory groups are added per request.
  identity::SessionClaims claims{caller.subject, caller.groups, team, role, now, now + length};
  if (not_after) claims.expires_at = std::min(claims.expires_at, *not_after);
  std::shared_lock lock(mutex_);
  return OpenedSession{identity::sign_session(claims, keys_.current()), std::move(claims)};
}

Decision AccessControl::review(const Principal& caller, std::string_view verb,
                               std::string_view resource, std::string_view namespace_name,
                               std::string_view name) const {
  if (caller.admin) return Decision{true, "", "", "", "allotd itself"};
  return authorizer()->authorize(caller, verb, resource, namespace_name, name);
}

Status AccessControl::authorize(const Principal& caller, std::string_view verb,
                                std::string_view resource, std::string_view namespace_name,
                                std::string_view name) const {
  if (caller.admin) return {};
  Decision decision = review(caller, verb, resource, namespace_name, name);
  if (decision.allowed) return {};
  return Status(ErrorCode::kPermissionDenied, std::move(decision.why));
}

std::shared_ptr<const Authorizer> AccessControl::authorizer() const {
  std::shared_lock lock(mutex_);
  return authorizer_;
}

}  // namespace allot
