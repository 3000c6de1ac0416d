// ScimService: the room of allotd that serves SCIM 2.0 (RFC 7643/7644) to a
// directory (Microsoft Entra ID, Okta): the in-memory directory of
// identity/scim made durable, resource by resource, and the SCIM bearer token.
//
// Contract:
// - Off until enable(token): then only a request bearing that token reaches
//   the directory (authenticate()). The token is kept only as its SHA-256,
//   compared in constant time, and never logged; enable() wipes the string
//   it was given.
// - Writes (create, replace, patch, remove) are durable before they return:
//   each commits one WriteBatch holding every record it touched (the
//   resource, the groups a deleted member leaves, a password hash, a retired
//   user name; scim_records.h). A commit that fails undoes the write in
//   memory and is kUnavailable: nothing is half-applied. Writes are
//   serialised; reads share the lock and see only committed writes.
// - A password sent with a User (Okta's password sync) is hashed with
//   Argon2id and only its hash is stored ("LocalPassword", by user id); it is
//   never returned. The hashing runs before the directory's lock is taken (a
//   dry run of the same write finds the password), so that 0.1 s of Argon2id
//   does not stall other requests. A PUT without a password keeps the stored
//   one; deleting the User drops it.
// - directory_view() is what AccessControl consults on every request; it is
//   updated after each commit, so the next request sees the change.
// - password_of() serves the local provider (local_login.h).
// - Errors are Statuses in scim_error.h's form; error_response() gives the
//   RFC 7644 section 3.12 body.
// JSON in and out: SCIM resources are documents whose schema the directory
// checks (identity/scim), passed through as they are, as stored workloads are.
// Thread-safe.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/clock.h"
#include "base/result.h"
#include "identity/scim/scim_directory.h"
#include "identity/scim/scim_discovery.h"
#include "identity/scim/scim_error.h"
#include "service/identity/directory_index.h"
#include "store/store.h"

namespace allot {

struct ScimServiceOptions {
  std::string base_location = "/scim/v2";  // meta.location and $ref prefix
  int64_t default_page_size = 100;
  int64_t max_page_size = 1000;
};

// A User's stored password, for the local provider.
struct StoredPassword {
  std::string user_name;  // as stored (the session's subject)
  std::string hash;       // Argon2id
};

class ScimService {
 public:
  // REQUIRES: `store`, `clock` and `ids` outlive the service.
  ScimService(Store& store, const Clock& clock, scim::IdGenerator& ids,
              ScimServiceOptions options = {});
  ScimService(const ScimService&) = delete;
  ScimService& operator=(const ScimService&) = delete;

  static bool is_directory_kind(std::string_view kind);
  // The stored directory (from recovery); objects of other kinds are ignored.
  Status load(const std::vector<ObjectRecord>& objects);

  // kInvalidArgument for a token under 16 bytes or with spaces or control characters.
  Status enable(std::string token);
  [[nodiscard]] bool enabled() const;
  // OK for "Bearer <the SCIM token>"; kUnauthenticated otherwise; kNotFound
  // (SCIM is not configured) before enable().
  [[nodiscard]] Status authenticate(std::string_view authorization) const;

  Result<nlohmann::json> create(scim::ResourceKind kind, const nlohmann::json& body);
  Result<nlohmann::json> replace(scim::ResourceKind kind, const std::string& id,
                                 const nlohmann::json& body);
  Result<nlohmann::json> patch(scim::ResourceKind kind, const std::string& id,
                               const nlohmann::json& request);
  Status remove(scim::ResourceKind kind, const std::string& id);
  [[nodiscard]] Result<nlohmann::json> get(scim::ResourceKind kind, const std::string& id,
                                           const scim::AttributeSelection& selection) const;
  // A ListResponse.
  [[nodiscard]] Result<nlohmann::json> list(scim::ResourceKind kind,
                                            const scim::ListQuery& query) const;

  [[nodiscard]] nlohmann::json service_provider_config() const;
  [[nodiscard]] nlohmann::json resource_types() const;
  [[nodiscard]] Result<nlohmann::json> resource_type(std::string_view name) const;
  [[nodiscard]] nlohmann::json schemas() const;
  [[nodiscard]] Result<nlohmann::json> schema(std::string_view urn) const;

  [[nodiscard]] const DirectoryView& directory_view() const { return index_; }
  // The password of the active User named `user_name` (ignoring ASCII
  // case); nullopt when there is no such User, it is deactivated, or it has
  // no password.
  [[nodiscard]] std::optional<StoredPassword> password_of(std::string_view user_name) const;

  static scim::ScimErrorResponse error_response(const Status& status);

 private:
  enum class Verb { kCreate, kReplace, kPatch };
  struct Hashed {
    std::string password;  // the cleartext the hash is of
    std::string hash;
  };

  Result<nlohmann::json> write(Verb verb, scim::ResourceKind kind, const std::string& id,
                               const nlohmann::json& body);
  // The Argon2id hash of the password `verb` would set, computed unlocked.
  std::optional<Hashed> hash_ahead(Verb verb, scim::ResourceKind kind, const std::string& id,
                                   const nlohmann::json& body) const;
  // Stores `change` (and `password` for `user_id`), or undoes it.
  Status commit(const scim::DirectoryChange& change,
                const std::optional<std::pair<std::string, std::string>>& password);
  [[nodiscard]] scim::DiscoveryOptions discovery_options() const;

  Store& store_;
  const Clock& clock_;
  scim::IdGenerator& ids_;
  ScimServiceOptions options_;
  std::optional<std::string> token_hash_;  // set once, before serving
  mutable std::shared_mutex mutex_;
  scim::ScimDirectory directory_;
  std::map<std::string, std::string> password_hashes_;  // user id -> Argon2id hash
  std::set<std::string> retired_names_;                 // as stored
  DirectoryIndex index_;
};

}  // namespace allot
