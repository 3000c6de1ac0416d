// ServiceAccounts: the service accounts of the teams' namespaces and their
// API tokens (issue 11: "service accounts per namespace with API tokens shown
// once and stored only as hashes; revocable"). A room of the control plane.
//
// Contract:
// - An account is named by a DNS-1123 label in the namespace of an existing
//   team; it authenticates as "system:serviceaccount:<namespace>:<name>"
//   (model/principal.h), in the groups "system:serviceaccounts" and
//   "system:serviceaccounts:<namespace>", and may do what RoleBindings grant
//   it: nothing by default.
// - Every call is authorised first (AccessControl::authorize, so that a
//   caller learns nothing about namespaces it may not see): create, get,
//   list, delete on `serviceaccounts`; issuing a token is `create` on the
//   subresource `serviceaccounts/token` (Kubernetes' TokenRequest), listing
//   an account's tokens `get` on it, revoking one `delete` on it, each with
//   the account's name.
// - issue_token() returns the token (`allot_...`) once; allotd keeps its
//   SHA-256 only, as an ApiToken record of AccessControl with the account's
//   subject, committed in the same WriteBatch as the account's token count.
//   A lifetime, when given, is 10 minutes to 10 years; without one the token
//   lasts until revoked. At most kMaxTokensPerAccount tokens live at once.
// - delete_account() deletes the account and every token of it in one
//   WriteBatch; revoke_token() deletes one. Both take effect for the next
//   request (AccessControl forgets the hashes once the batch is durable).
// - Nothing changes unless its batch is durable; stored as objects of kind
//   "ServiceAccount" (name "<namespace>/<name>"), taken back by load().
// - A team whose namespace holds an account can neither be deleted nor
//   change its namespace (NamespaceContents): delete the accounts first. An
//   account is created under the policy gate, held shared from the check that
//   its team exists to its commit.
// Thread-safe: changes are serialised by one lock, held across their commit
// (lock order: the policy gate, this room, the cluster's state, AccessControl).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "model/principal.h"
#include "model/views/service_account_view.h"
#include "service/control/access_control.h"
#include "service/control/cluster_state.h"
#include "service/control/namespace_contents.h"
#include "store/store.h"

namespace allot {

inline constexpr std::string_view kServiceAccountKind = "ServiceAccount";
inline constexpr size_t kMaxTokensPerAccount = 50;
inline constexpr Duration kShortestTokenLifetime = Duration::minutes(10);
inline constexpr Duration kLongestTokenLifetime = Duration::hours(int64_t{24} * 3650);

class ServiceAccounts final : public NamespaceContents {
 public:
  ServiceAccounts(ClusterState& cluster, AccessControl& access, const Clock& clock)
      : cluster_(cluster), access_(access), clock_(clock) {}
  ServiceAccounts(const ServiceAccounts&) = delete;
  ServiceAccounts& operator=(const ServiceAccounts&) = delete;

  static bool is_service_account_kind(std::string_view kind) { return kind == kServiceAccountKind; }
  // The stored accounts (from recovery); other kinds are ignored.
  Status load(const std::vector<ObjectRecord>& objects);

  Result<ServiceAccountView> create(const Principal& caller, const std::string& namespace_name,
                                    const std::string& name);
  [[nodiscard]] Result<ServiceAccountView> get(const Principal& caller,
                                               const std::string& namespace_name,
                                               const std::string& name) const;
  // One namespace's accounts, or (namespace "") those of every namespace the
  // caller may list; ordered by namespace, then name.
  [[nodiscard]] Result<std::vector<ServiceAccountView>> list(
      const Principal& caller, const std::string& namespace_name) const;
  Status delete_account(const Principal& caller, const std::string& namespace_name,
                        const std::string& name);

  Result<IssuedToken> issue_token(const Principal& caller, const std::string& namespace_name,
                                  const std::string& name, std::optional<Duration> lifetime);
  [[nodiscard]] Result<std::vector<ServiceAccountTokenView>> tokens(
      const Principal& caller, const std::string& namespace_name, const std::string& name) const;
  Status revoke_token(const Principal& caller, const std::string& namespace_name,
                      const std::string& name, const std::string& id);

  [[nodiscard]] std::optional<std::string> first_object_in(
      const std::string& namespace_name) const override;

 private:
  using Key = std::pair<std::string, std::string>;  // namespace, name
  struct Account {
    Timestamp created_at;
    uint64_t tokens_issued = 0;  // numbers the ids, never reused while the account lives
  };

  // kNotFound unless the account exists. REQUIRES: mu_ held.
  Result<Account> find(const Key& key) const ALLOT_REQUIRES(mu_);
  Status check_team(const std::string& namespace_name) const;
  [[nodiscard]] ServiceAccountView view_of(const Key& key, const Account& account) const;
  static ObjectRecord record_of(const Key& key, const Account& account);

  ClusterState& cluster_;
  AccessControl& access_;
  const Clock& clock_;
  mutable Mutex mu_;
  std::map<Key, Account> accounts_ ALLOT_GUARDED_BY(mu_);
};

// "system:serviceaccount:<namespace>:<name>".
std::string service_account_subject(std::string_view namespace_name, std::string_view name);

}  // namespace allot
