// DirectoryIndex: the DirectoryView that AccessControl consults on every
// request, kept in step with the SCIM directory by its service after each
// committed write (scim_service.h).
//
// Contract: standing() is one hash lookup of the lower-cased subject, then
// one per group of the User, under a shared lock: writers of the directory
// never hold it while they commit, so a slow disk never delays
// authentication. apply() takes a committed change (before: unindexed,
// after: indexed) and the user names it retired or revived; load() replaces
// everything with what recovery read. Thread-safe.
#pragma once

#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "identity/scim/scim_directory_change.h"
#include "service/identity/directory_view.h"
#include "service/identity/scim_records.h"

namespace allot {

class DirectoryIndex final : public DirectoryView {
 public:
  [[nodiscard]] std::optional<DirectoryStanding> standing(std::string_view subject) const override;
  [[nodiscard]] bool has_group(std::string_view display_name) const override;

  void apply(const scim::DirectoryChange& change, const UserNameChanges& names);
  void load(const std::vector<scim::StoredResource>& records,
            const std::set<std::string>& retired_names);

 private:
  struct User {
    std::string id;
    bool active = true;
  };

  void index(scim::ResourceKind kind, const nlohmann::json& resource, bool add);

  mutable std::shared_mutex mutex_;
  std::unordered_map<std::string, User> users_by_name_;               // lower-cased userName
  std::unordered_map<std::string, std::string> group_names_;          // group id -> displayName
  std::unordered_map<std::string, std::set<std::string>> groups_of_;  // member id -> group ids
  std::unordered_set<std::string> retired_names_;
};

}  // namespace allot
