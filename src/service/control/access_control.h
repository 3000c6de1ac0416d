// AccessControl: who is calling, and what they may do (issue 11, DESIGN.md
// section 4). A room of the control plane: it holds the API tokens (their
// hashes), the session signing keys and the Authorizer, and answers
// authenticate(), open_session() and authorize().
//
// Contract:
// - Deny by default: a request without a valid credential is
//   kUnauthenticated; an authenticated caller may do only what its RBAC
//   bindings grant (authz/authorizer.h), and a session only what its role
//   grants in its team as well. Principal::admin (allotd itself: the loop,
//   recovery) passes every check.
// - bootstrap_admin(): on first start (no API token stored) it issues the
//   token of the local user `admin`, in the group system:admins (bound to
//   cluster-admin), commits its hash, and returns the token: the only time
//   it exists in clear (allotd writes it to DATA/admin-token, 0600).
// - Credentials: an API token (`allot_...`, looked up by its SHA-256) or a
//   session token (`allots_...`, HMAC under the key ring, expiring). A token
//   record that expired authenticates nobody. With an IdTokenAuthenticator
//   (allotd --oidc-issuer), any other token of three dot-separated parts
//   (a JWT) is an OIDC ID or access token, verified by it (as kubectl's
//   OIDC bearer tokens are); without one, a JWT is refused as such.
// - open_session(): exchanges an API token or an OIDC ID token for a session
//   bound to a team and a role the caller holds there (every rule of the
//   role within what its bindings grant in that namespace), to a
//   ClusterRole alone that the caller holds at cluster scope (its rules on
//   cluster-scoped resources only: contract-approver), or, for a cluster
//   admin, to nothing (cluster-wide); kPermissionDenied otherwise. A session lasts 8 hours by
//   default, 12 at most, never past the credential that opened it (an ID token's `exp`).
//   With SessionRequest::nonce (the web dashboard's OIDC login), the ID
//   token's `nonce` claim must equal it (kUnauthenticated otherwise).
// - The directory (attach_directory(), service/identity): on every request,
//   API token or session, a caller whose subject is a directory User (its
//   userName, ignoring case) gets the displayName of each group it is a
//   direct member of, besides the groups its credential carries; a
//   deactivated, deleted or renamed User is kUnauthenticated whatever it
//   presents. Subjects "system:..." (allotd's own identities, service
//   accounts) are not looked up. Sessions store only the credential's
//   groups, so a membership change counts from the next request.
// - open_password_session(): the local provider (a directory User's
//   password, PasswordLogin) instead of an API token, with the same team,
//   role and lifetime rules.
// - Stored as objects of kinds "ApiToken" (name: the token's id) and
//   "SessionKeys" (written with the first session); load() takes them from
//   recovery. Secrets never appear in
//   errors or logs.
// - Service accounts' tokens (service_accounts.h) are API tokens whose
//   subject is "system:serviceaccount:NS:NAME": that room changes them with
//   commit_api_tokens(), together with its own objects. A service account
//   uses its token as it is: it cannot open a session (which would outlive a
//   revocation).
// - revoke_session() (a logout): a session token this allotd signed
//   authenticates nobody afterwards, here and after a restart. Stored as an
//   object "RevokedSession" named by the token's SHA-256 (never the token),
//   kept until the token's own expiry; the expired ones are deleted with the
//   next revocation and skipped by load().
// Thread-safe: reads share a lock, token and key changes take it alone.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "authz/authorizer.h"
#include "authz/decision.h"
#include "base/clock.h"
#include "base/result.h"
#include "identity/credentials/api_token.h"
#include "identity/credentials/session_token.h"
#include "model/principal.h"
#include "service/control/id_token_authenticator.h"
#include "service/identity/directory_view.h"
#include "service/identity/password_login.h"
#include "store/store.h"

namespace allot {

inline constexpr std::string_view kApiTokenKind = "ApiToken";
inline constexpr std::string_view kSessionKeysKind = "SessionKeys";
inline constexpr std::string_view kRevokedSessionKind = "RevokedSession";
inline constexpr std::string_view kAdminUser = "admin";

struct SessionRequest {
  std::string token;  // the credential: an API token (or id_token)
  std::string team;   // empty: a ClusterRole's session at cluster scope, or with no role
                      // a cluster-wide one (a cluster admin's)
  std::string role;
  std::optional<Duration> lifetime;
  std::string id_token = {};  // the credential instead of `token`: an OIDC ID token
  std::string nonce = {};     // when set, the ID token's `nonce` claim must equal it
};

// A login to the local provider: a directory User's name and password.
struct PasswordSessionRequest {
  std::string user_name;
  std::string password;
  std::string team;
  std::string role;
  std::optional<Duration> lifetime;
};

struct OpenedSession {
  std::string token;
  identity::SessionClaims claims;
};

// How clients may log in (GET /api/v1/authconfig).
struct LoginMethods {
  std::optional<OidcLoginConfig> oidc;  // none without --oidc-issuer
  bool local = false;                   // the local provider's passwords
};

class AccessControl {
 public:
  // `id_tokens` (may be null: no OIDC login) must outlive this.
  AccessControl(Store& store, const Clock& clock, IdTokenAuthenticator* id_tokens = nullptr);

  static bool is_access_kind(std::string_view kind);

  // The stored tokens and keys (from recovery); creates the keys when none.
  Status load(const std::vector<ObjectRecord>& objects);
  Result<std::optional<std::string>> bootstrap_admin();
  // Replaces the API token `id` (the caller must be allowed to update
  // serviceaccounts cluster-wide, i.e. be a cluster admin); returns the new token.
  Result<std::string> rotate_api_token(const Principal& caller, const std::string& id);

  Result<Principal> authenticate(std::string_view bearer) const;

  // For ServiceAccounts: commits `batch` with the token records `put` added
  // (replacing any of the same id) and the tokens `erased` deleted, then
  // changes the tokens in memory, so that the next request sees the change.
  Status commit_api_tokens(WriteBatch batch, const std::vector<identity::ApiTokenRecord>& put,
                           const std::vector<std::string>& erased);
  // The records (hashes, never secrets) of `subject`'s tokens, by id.
  [[nodiscard]] std::vector<identity::ApiTokenRecord> api_tokens_of(std::string_view subject) const;
  Result<OpenedSession> open_session(const SessionRequest& request);
  [[nodiscard]] LoginMethods login_methods() const;
  // The OIDC issuer's authenticator (null: none), for the browser login.
  [[nodiscard]] IdTokenAuthenticator* id_token_authenticator() const { return id_tokens_; }
  Result<OpenedSession> open_password_session(const PasswordSessionRequest& request);
  // Ends a session for good (see the contract). kUnauthenticated for a token
  // that is not a valid session token of this allotd (already expired,
  // revoked, or not signed here): there is nothing to end.
  Status revoke_session(std::string_view token);

  // The directory consulted on every request and the local provider's
  // password check; either may be null (none). REQUIRES: called before
  // serving; both outlive this.
  void attach_directory(const DirectoryView* directory, PasswordLogin* passwords);

  // kPermissionDenied with the authorizer's reason, or OK.
  Status authorize(const Principal& caller, std::string_view verb, std::string_view resource,
                   std::string_view namespace_name, std::string_view name = {}) const;
  [[nodiscard]] Decision review(const Principal& caller, std::string_view verb,
                                std::string_view resource, std::string_view namespace_name,
                                std::string_view name = {}) const;
  [[nodiscard]] std::shared_ptr<const Authorizer> authorizer() const;
  // Replaces the Authorizer with one of `rbac` (the applied RBAC objects)
  // and the built-in roles; requests that follow are decided by it.
  void install_rbac(RbacPolicy rbac);

 private:
  // Who the credential of a session request is, and until when it is valid.
  struct Login {
    Principal caller;
    std::optional<Timestamp> expires_at;
  };
  Result<Login> login_of(const SessionRequest& request) const;
  Result<Login> id_token_login(std::string_view token, std::string_view nonce = {}) const;
  Result<Principal> principal_of_token(std::string_view token) const;
  // `principal` with its directory groups; kUnauthenticated for a User the
  // directory deactivated or no longer has.
  Result<Principal> with_directory(Principal principal) const;
  // Checks the team and role against what `caller` holds (with its directory
  // groups) and signs a session with the credential's own groups.
  Result<OpenedSession> issue_session(const Principal& caller, const std::string& team,
                                      const std::string& role, std::optional<Duration> lifetime,
                                      std::optional<Timestamp> not_after);
  Status check_role_held(const Principal& caller, const std::string& team,
                         const std::string& role) const;
  // REQUIRES: token_writes_mu_ held.
  Status commit_token(const identity::ApiTokenRecord& record);
  // Stores the key ring the first time a session is signed with it.
  Status store_keys_once();

  Store& store_;
  const Clock& clock_;
  IdTokenAuthenticator* const id_tokens_;
  // Serialises changes of API tokens from their read to their install, so
  // that memory and the store agree (taken before mutex_; after a
  // ServiceAccounts room's lock).
  std::mutex token_writes_mu_;
  mutable std::shared_mutex mutex_;
  std::unordered_map<std::string, identity::ApiTokenRecord> tokens_by_hash_;
  identity::SessionKeyRing keys_;
  bool keys_stored_ = false;
  // Revoked session tokens: SHA-256 (hex) to the token's expiry.
  std::unordered_map<std::string, Timestamp> revoked_sessions_;
  std::shared_ptr<const Authorizer> authorizer_;
  const DirectoryView* directory_ = nullptr;
  PasswordLogin* passwords_ = nullptr;
};

}  // namespace allot
