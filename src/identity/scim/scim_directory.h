// ScimDirectory: the Users and Groups a SCIM client (Entra ID, Okta)
// provisions, held in memory: what the /scim/v2 routes call (RFC 7644
// section 3). No HTTP, no I/O, no clock, no randomness: ids come from an
// injected IdGenerator and every write takes `now`.
//
// Behaviour:
// - create (POST) normalizes the body (scim_resource.h), gives it an id and
//   meta {resourceType, created, lastModified, location, version W/"n"};
//   userName (Users) and displayName (Groups) are unique ignoring ASCII case:
//   a clash is kAlreadyExists, scimType uniqueness (409). replace (PUT) and
//   patch (PATCH, scim_patch.h) check the same and bump lastModified and
//   version; id and created never change. A group's members must name
//   existing Users or Groups (invalidValue otherwise); their "type" is set.
// - A password sent with a User (POST, PUT, PATCH) is never stored nor
//   returned (RFC 7643: returned never): the write hands it back once in
//   WriteResult::password, for the caller to hash (Argon2id) and keep apart.
// - remove (DELETE) deletes; removing a User or Group takes it out of every
//   group's members (an index of members answers which groups). A User with active=false stays
//   (listed, returned) but is_active() is false: that is how Entra and Okta deprovision.
// - list: the filter (scim_filter.h) over resources in creation order, then
//   startIndex (1-based; below 1 means 1) and count (default and maximum in
//   DirectoryOptions; negative means 0). Creation order never changes, so a
//   client paging while others are created sees every resource that existed
//   when it started exactly once. A filter `userName eq "..."` (Groups:
//   displayName) or `id eq "..."` is answered from an index.
// - Responses: a User carries "groups" ({value, display, type "direct"},
//   computed from the groups' members); attributes/excludedAttributes apply
//   (scim_projection.h), e.g. excludedAttributes=members for Groups.
// - groups_of(user) gives the displayName of each group the user is a
//   direct member of: the group subjects of RBAC.
//
// Persistence, one record per resource: every successful write reports the
// resources it touched (DirectoryChange, scim_directory_change.h) for the
// caller to store in one batch; revert() undoes a write whose commit failed;
// from_records() rebuilds the directory from the stored records (creation
// order from their sequences). No record holds a password. Every failed call
// leaves the directory unchanged.
//
// Thread-compatible: the caller serialises writes (one mutex in the server).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "base/time.h"
#include "identity/scim/scim_directory_change.h"
#include "identity/scim/scim_filter.h"
#include "identity/scim/scim_projection.h"
#include "identity/scim/scim_schema.h"

namespace allot::scim {

inline constexpr std::string_view kListResponseSchema =
    "urn:ietf:params:scim:api:messages:2.0:ListResponse";

// Where new resources' ids come from: UUIDs in the server, a counter in tests.
class IdGenerator {
 public:
  virtual ~IdGenerator() = default;
  // An id never returned before.
  virtual std::string next_id() = 0;
};

struct DirectoryOptions {
  std::string base_location = "/scim/v2";  // meta.location: base + "/Users/" + id
  int64_t default_page_size = 100;
  int64_t max_page_size = 1000;
};

struct WriteResult {
  nlohmann::json resource;              // as a GET returns it
  std::optional<std::string> password;  // cleartext the client sent: hash it, never keep it
  DirectoryChange change;               // what to store
};

struct ListQuery {
  std::string filter;  // empty: every resource
  int64_t start_index = 1;
  std::optional<int64_t> count;  // none: DirectoryOptions::default_page_size
  AttributeSelection selection;
};

struct ListResponse {
  int64_t total_results = 0;
  int64_t start_index = 1;
  std::vector<nlohmann::json> resources;

  // {"schemas":[ListResponse],"totalResults":..,"startIndex":..,"itemsPerPage":..,"Resources":[..]}
  [[nodiscard]] nlohmann::json to_json() const;
};

class ScimDirectory {
 public:
  // REQUIRES: `ids` outlives the directory.
  explicit ScimDirectory(IdGenerator& ids, DirectoryOptions options = {});

  Result<WriteResult> create(ResourceKind kind, const nlohmann::json& body, Timestamp now);
  Result<nlohmann::json> get(ResourceKind kind, std::string_view id,
                             const AttributeSelection& selection = {}) const;
  Result<WriteResult> replace(ResourceKind kind, std::string_view id, const nlohmann::json& body,
                              Timestamp now);
  Result<WriteResult> patch(ResourceKind kind, std::string_view id, const nlohmann::json& request,
                            Timestamp now);
  // The change: the resource deleted, then each group it was taken out of.
  Result<DirectoryChange> remove(ResourceKind kind, std::string_view id, Timestamp now);
  Result<ListResponse> list(ResourceKind kind, const ListQuery& query) const;

  // Whether the user exists and is not deactivated (active=false).
  [[nodiscard]] bool is_active(std::string_view user_id) const;
  // The id of the user with that userName (ignoring ASCII case).
  [[nodiscard]] std::optional<std::string> find_user_id(std::string_view user_name) const;
  // The displayName of every group the user is a direct member of, in the
  // groups' creation order.
  [[nodiscard]] std::vector<std::string> groups_of(std::string_view user_id) const;
  // The member ids of a group (Users and Groups), in their order.
  Result<std::vector<std::string>> members_of(std::string_view group_id) const;

  // Puts back what `change` replaced and removes what it created.
  // REQUIRES: `change` is what the latest successful write returned.
  void revert(const DirectoryChange& change);

  // Every resource as stored, in creation order.
  [[nodiscard]] std::vector<StoredResource> records() const;
  // REQUIRES: `ids` outlives the directory. Errors: kInvalidArgument, naming
  // the resource, for a record that is not one a write produced (not
  // normalized, no id or meta, a repeated id, name or sequence).
  static Result<ScimDirectory> from_records(std::vector<StoredResource> records, IdGenerator& ids,
                                            DirectoryOptions options = {});

 private:
  // One kind's resources: stored normalized, with id and meta, in creation order.
  struct Table {
    std::map<uint64_t, nlohmann::json> by_sequence;
    std::unordered_map<std::string, uint64_t> by_id;
    std::unordered_map<std::string, uint64_t> by_name;  // lower-case userName or displayName
  };

  Table& table(ResourceKind kind) { return kind == ResourceKind::kUser ? users_ : groups_; }
  const Table& table(ResourceKind kind) const {
    return kind == ResourceKind::kUser ? users_ : groups_;
  }
  const nlohmann::json* find(ResourceKind kind, std::string_view id) const;
  std::optional<uint64_t> sequence_of(ResourceKind kind, std::string_view id) const;
  Status check_unique(ResourceKind kind, const nlohmann::json& resource,
                      std::string_view own_id) const;
  Status check_members(nlohmann::json& group, std::string_view own_id) const;
  Result<WriteResult> store(ResourceKind kind, nlohmann::json resource,
                            std::optional<std::string> password, std::string_view id,
                            Timestamp now);
  void put(ResourceKind kind, uint64_t sequence, nlohmann::json resource);
  void erase(ResourceKind kind, std::string_view id);
  void index_members(uint64_t group_sequence, const nlohmann::json& group, bool add);
  Status load_record(StoredResource record);
  void drop_member_everywhere(std::string_view member_id, Timestamp now, DirectoryChange& change);
  nlohmann::json view(ResourceKind kind, const nlohmann::json& stored) const;
  // The resources a filter can match, in creation order (an index answers
  // `userName eq`/`id eq`); every resource for nullptr.
  std::vector<const nlohmann::json*> candidates(ResourceKind kind, const FilterNode* filter) const;

  IdGenerator* ids_;
  DirectoryOptions options_;
  uint64_t next_sequence_ = 1;
  Table users_;
  Table groups_;
  // Member id (User or Group) -> the sequences of the groups that list it.
  std::unordered_map<std::string, std::set<uint64_t>> groups_by_member_;
};

}  // namespace allot::scim
