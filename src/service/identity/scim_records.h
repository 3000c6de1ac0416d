// How the SCIM directory is stored: one object per resource, never the whole
// directory as one document (10,000 users must not mean rewriting megabytes
// on each POST), so that a write stores only what it touched.
//
// Contract:
// - "ScimUser" / "ScimGroup", named by the resource's id: {"sequence": N,
//   "resource": {...}}, the stored form (scim_directory_change.h); the
//   sequence carries the creation order across restarts.
// - "LocalPassword", named by the User's id: {"hash": "$argon2id$..."}; only
//   the hash, never the password.
// - "ScimRetiredUserName", named by a lower-cased userName the directory had
//   and no longer has (deleted or renamed): {}. A credential of that subject
//   is refused until a User takes the name again.
// A write's batch (batch_of) holds every record the change touched, so that
// one commit stores all of it or nothing. Pure functions; thread-safe.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "base/result.h"
#include "identity/scim/scim_directory_change.h"
#include "store/store.h"

namespace allot {

inline constexpr std::string_view kScimUserKind = "ScimUser";
inline constexpr std::string_view kScimGroupKind = "ScimGroup";
inline constexpr std::string_view kLocalPasswordKind = "LocalPassword";
inline constexpr std::string_view kRetiredUserNameKind = "ScimRetiredUserName";

bool is_directory_kind(std::string_view kind);

ObjectRecord resource_record(const scim::StoredResource& stored);
// kInvalidArgument, naming the object, for a record resource_record() did not write.
Result<scim::StoredResource> stored_resource_of(const ObjectRecord& record);

ObjectRecord password_record(const std::string& user_id, const std::string& hash);
Result<std::string> password_hash_of(const ObjectRecord& record);

// The lower-cased userNames a change takes away (a User deleted or renamed)
// and gives (a User created or renamed onto a name). A name both given and
// taken (renamed back and forth) counts as given.
struct UserNameChanges {
  std::set<std::string> retired;
  std::set<std::string> revived;
};
UserNameChanges user_name_changes(const scim::DirectoryChange& change);

// The lower-cased userName of a stored User ("" when it has none).
std::string user_name_key(const nlohmann::json& user);

// Everything `change` touched as one batch: each resource put or deleted;
// the passwords set (by user id: the new hashes) or dropped with their
// users; the retired names put, or deleted when revived and stored as retired.
struct PasswordChanges {
  std::map<std::string, std::string> set;  // user id -> Argon2id hash
  std::set<std::string> dropped;           // user ids whose stored hash goes
};
WriteBatch batch_of(const scim::DirectoryChange& change, const PasswordChanges& passwords,
                    const UserNameChanges& names, const std::set<std::string>& stored_retired);

}  // namespace allot
