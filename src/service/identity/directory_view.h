// DirectoryView: what the directory (SCIM-provisioned Users and Groups) says
// about a caller, consulted by AccessControl on every authenticated request
// (issue 11: directory groups are RBAC subjects; deprovisioning takes access
// away at once).
//
// Contract: standing(subject) looks the subject up as a User's userName,
// ignoring ASCII case. nullopt: the directory has never known that name, and
// adds nothing (the first administrator, a service account). Otherwise
// `active` is false when the User is deactivated (active=false), or when the
// directory had a User of that name and no longer has it (deleted, renamed):
// the caller is refused whatever credential it holds; and `groups` are the
// displayNames of the groups the User is a direct member of, sorted. What
// it answers is committed: a change is seen by the next request once it is
// stored. Implementations are thread-safe and cheap (one lookup per request).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace allot {

struct DirectoryStanding {
  bool active = true;
  std::vector<std::string> groups;

  friend bool operator==(const DirectoryStanding&, const DirectoryStanding&) = default;
};

class DirectoryView {
 public:
  virtual ~DirectoryView() = default;
  [[nodiscard]] virtual std::optional<DirectoryStanding> standing(
      std::string_view subject) const = 0;
  // Whether a Group of that displayName exists (exact case). Contracts name
  // their owners as Users or Groups (issue 15).
  [[nodiscard]] virtual bool has_group(std::string_view display_name) const {
    static_cast<void>(display_name);
    return false;
  }
};

}  // namespace allot
