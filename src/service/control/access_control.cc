#include "service/control/access_control.h"

#include <algorithm>
#include <mutex>
#include <utility>

#include "authz/builtin_roles.h"
#include "authz/rule_covers.h"
#include "identity/credentials/secret_codec.h"

namespace allot {
namespace {

constexpr std::string_view kBearerPrefix = "Bearer ";
constexpr Duration kDefaultSession = Duration::hours(8);
constexpr Duration kLongestSession = Duration::hours(12);
constexpr std::string_view kServiceAccountSubjectPrefix = "system:serviceaccount:";

Status unauthenticated(std::string message) {
  return Status(ErrorCode::kUnauthenticated, std::move(message));
}

Principal principal_of(std::string subject, std::vector<std::string> groups) {
  return Principal::user(std::move(subject), std::move(groups));
}

// A JWS in compact form: three parts, two dots; allot's own tokens are told
// apart first by their prefixes (a session token has one dot).
bool is_jwt(std::string_view token) {
  return !identity::is_session_token(token) && !identity::is_api_token(token) &&
         std::count(token.begin(), token.end(), '.') == 2;
}

}  // namespace

AccessControl::AccessControl(Store& store, const Clock& clock, IdTokenAuthenticator* id_tokens)
    : store_(store),
      clock_(clock),
      id_tokens_(id_tokens),
      keys_(identity::SessionKeyRing::fresh(clock.now())),
      authorizer_(std::make_shared<const Authorizer>(with_builtin_roles(RbacPolicy{}))) {}

bool AccessControl::is_access_kind(std::string_view kind) {
  return kind == kApiTokenKind || kind == kSessionKeysKind || kind == kRevokedSessionKind;
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
    } else if (object.kind == kRevokedSessionKind && json.is_object() &&
               json.value("expiresAtMs", int64_t{0}) > clock_.now().ms()) {
      revoked_sessions_[object.name] =
          Timestamp::from_millis(json.value("expiresAtMs", int64_t{0}));
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
  const std::lock_guard writes(token_writes_mu_);
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
  // REQUIRES: token_writes_mu_ held.
  WriteBatch batch;
  batch.put_objects.push_back(
      {std::string(kApiTokenKind), record.id, identity::api_token_record_json(record).dump()});
  ALLOT_RETURN_IF_ERROR(store_.commit(std::move(batch)));
  std::unique_lock lock(mutex_);
  std::erase_if(tokens_by_hash_, [&](const auto& entry) { return entry.second.id == record.id; });
  tokens_by_hash_[record.hash] = record;
  return {};
}

Status AccessControl::commit_api_tokens(WriteBatch batch,
                                        const std::vector<identity::ApiTokenRecord>& put,
                                        const std::vector<std::string>& erased) {
  const std::lock_guard writes(token_writes_mu_);
  for (const identity::ApiTokenRecord& record : put) {
    batch.put_objects.push_back(
        {std::string(kApiTokenKind), record.id, identity::api_token_record_json(record).dump()});
  }
  for (const std::string& id : erased)
    batch.delete_objects.push_back({std::string(kApiTokenKind), id});
  ALLOT_RETURN_IF_ERROR(store_.commit(std::move(batch)));
  std::unique_lock lock(mutex_);
  std::erase_if(tokens_by_hash_, [&](const auto& entry) {
    const std::string& id = entry.second.id;
    return std::find(erased.begin(), erased.end(), id) != erased.end() ||
           std::any_of(put.begin(), put.end(), [&](const auto& record) { return record.id == id; });
  });
  for (const identity::ApiTokenRecord& record : put) tokens_by_hash_[record.hash] = record;
  return {};
}

std::vector<identity::ApiTokenRecord> AccessControl::api_tokens_of(std::string_view subject) const {
  std::vector<identity::ApiTokenRecord> out;
  {
    std::shared_lock lock(mutex_);
    for (const auto& [hash, record] : tokens_by_hash_) {
      if (record.subject == subject) out.push_back(record);
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

Result<std::string> AccessControl::rotate_api_token(const Principal& caller,
                                                    const std::string& id) {
  ALLOT_RETURN_IF_ERROR(authorize(caller, "update", "serviceaccounts", "", id));
  // Held from the lookup to the install: a revoke (or an account's deletion)
  // between them would otherwise be undone by this commit, and two rotations
  // could install in the other order than they were stored.
  const std::lock_guard writes(token_writes_mu_);
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

Result<AccessControl::Login> AccessControl::id_token_login(std::string_view token,
                                                           std::string_view nonce) const {
  if (id_tokens_ == nullptr) {
    return unauthenticated(
        "OIDC tokens are not accepted: this allotd has no identity provider (allotd "
        "--oidc-issuer)");
  }
  ALLOT_ASSIGN_OR_RETURN(ExternalIdentity identity, id_tokens_->authenticate(token, clock_.now()));
  // The browser login's nonce: the token was issued for this login, not
  // replayed from another (OpenID Connect Core section 3.1.3.7, step 11).
  if (!nonce.empty() && !identity::constant_time_equal(identity.nonce, nonce)) {
    return unauthenticated("the ID token's nonce is not this login's");
  }
  return Login{principal_of(std::move(identity.subject), std::move(identity.groups)),
               identity.expires_at};
}

Result<Principal> AccessControl::principal_of_token(std::string_view token) const {
  // Verified outside the lock: it may fetch the issuer's keys.
  if (is_jwt(token)) {
    ALLOT_ASSIGN_OR_RETURN(Login login, id_token_login(token));
    return std::move(login.caller);
  }
  const Timestamp now = clock_.now();
  std::shared_lock lock(mutex_);
  if (identity::is_session_token(token)) {
    ALLOT_ASSIGN_OR_RETURN(identity::SessionClaims claims,
                           identity::verify_session(token, keys_, now));
    if (!revoked_sessions_.empty() && revoked_sessions_.contains(identity::sha256_hex(token))) {
      return unauthenticated("the session was ended (logged out); log in again");
    }
    Principal principal = principal_of(std::move(claims.subject), std::move(claims.groups));
    // A role without a team: a ClusterRole's session at cluster scope.
    if (!claims.role.empty()) principal.scope = SessionScope{claims.team, claims.role};
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
  if (directory_ == nullptr || is_reserved_name(principal.subject)) return principal;
  std::optional<DirectoryStanding> standing = directory_->standing(principal.subject);
  if (!standing) return principal;
  if (!standing->active) {
    return unauthenticated("the user \"" + principal.subject +
                           "\" is deactivated or no longer in the directory");
  }
  for (std::string& group : standing->groups) {
    if (is_reserved_name(group)) continue;  // stored before SCIM refused them (principal.h)
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

Result<AccessControl::Login> AccessControl::login_of(const SessionRequest& request) const {
  if (!request.id_token.empty()) return id_token_login(request.id_token, request.nonce);
  if (!identity::is_api_token(request.token)) {
    return unauthenticated("the credential must be an API token");
  }
  ALLOT_ASSIGN_OR_RETURN(Principal caller, principal_of_token(request.token));
  if (caller.subject.starts_with(kServiceAccountSubjectPrefix)) {
    return Status(ErrorCode::kPermissionDenied,
                  "a service account sends its API token as it is (Authorization: Bearer); it "
                  "opens no session, so that revoking the token ends its access at once");
  }
  std::shared_lock lock(mutex_);
  const auto it = tokens_by_hash_.find(identity::api_token_hash(request.token));
  if (it == tokens_by_hash_.end()) return Login{std::move(caller), std::nullopt};
  return Login{std::move(caller), it->second.expires_at};
}

Result<OpenedSession> AccessControl::open_session(const SessionRequest& request) {
  if (!request.team.empty() && request.role.empty()) {
    return invalid_argument("a session bound to a team names the role it acts with", "role");
  }
  ALLOT_ASSIGN_OR_RETURN(Login login, login_of(request));
  return issue_session(login.caller, request.team, request.role, request.lifetime,
                       login.expires_at);
}

Result<OpenedSession> AccessControl::open_password_session(const PasswordSessionRequest& request) {
  if (!request.team.empty() && request.role.empty()) {
    return invalid_argument("a session bound to a team names the role it acts with", "role");
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
  if (team.empty() && role.empty()) {
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
  // An ID token within its expiry leeway would open a session already over.
  if (claims.expires_at <= now) return unauthenticated("the credential has expired");
  std::shared_lock lock(mutex_);
  return OpenedSession{identity::sign_session(claims, keys_.current()), std::move(claims)};
}

Status AccessControl::revoke_session(std::string_view token) {
  const Timestamp now = clock_.now();
  if (!identity::is_session_token(token)) return unauthenticated("not a session token");
  const std::lock_guard writes(token_writes_mu_);
  Timestamp expires_at;
  {
    std::shared_lock lock(mutex_);
    ALLOT_ASSIGN_OR_RETURN(identity::SessionClaims claims,
                           identity::verify_session(token, keys_, now));
    expires_at = claims.expires_at;
  }
  const std::string hash = identity::sha256_hex(token);
  WriteBatch batch;
  nlohmann::json document = {{"expiresAtMs", expires_at.ms()}};
  batch.put_objects.push_back({std::string(kRevokedSessionKind), hash, document.dump()});
  std::vector<std::string> expired;
  {
    std::shared_lock lock(mutex_);
    for (const auto& [revoked, until] : revoked_sessions_) {
      if (until <= now) expired.push_back(revoked);
    }
  }
  for (const std::string& name : expired) {
    batch.delete_objects.push_back({std::string(kRevokedSessionKind), name});
  }
  ALLOT_RETURN_IF_ERROR(store_.commit(std::move(batch)));
  std::unique_lock lock(mutex_);
  for (const std::string& name : expired) revoked_sessions_.erase(name);
  revoked_sessions_[hash] = expires_at;
  return {};
}

LoginMethods AccessControl::login_methods() const {
  LoginMethods methods;
  if (id_tokens_ != nullptr) methods.oidc = id_tokens_->login_config(clock_.now());
  methods.local = passwords_ != nullptr;
  return methods;
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

void AccessControl::install_rbac(RbacPolicy rbac) {
  auto next = std::make_shared<const Authorizer>(with_builtin_roles(std::move(rbac)));
  std::unique_lock lock(mutex_);
  authorizer_ = std::move(next);
}

}  // namespace allot
