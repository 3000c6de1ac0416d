#include "service/identity/directory_index.h"

#include <algorithm>
#include <mutex>

#include "identity/scim/scim_names.h"

namespace allot {
namespace {

using json = nlohmann::json;

bool active_of(const json& user) {
  const json* active = scim::find_member(user, "active");
  return active == nullptr || !active->is_boolean() || active->get<bool>();
}

std::string string_of(const json& object, std::string_view name) {
  const json* value = scim::find_member(object, name);
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

}  // namespace

bool DirectoryIndex::has_group(std::string_view display_name) const {
  std::shared_lock lock(mutex_);
  return std::any_of(group_names_.begin(), group_names_.end(),
                     [&](const auto& group) { return group.second == display_name; });
}

std::optional<DirectoryStanding> DirectoryIndex::standing(std::string_view subject) const {
  const std::string key = scim::ascii_lower(subject);
  std::shared_lock lock(mutex_);
  const auto user = users_by_name_.find(key);
  if (user == users_by_name_.end()) {
    if (retired_names_.contains(key)) return DirectoryStanding{false, {}};
    return std::nullopt;
  }
  DirectoryStanding standing{user->second.active, {}};
  if (const auto groups = groups_of_.find(user->second.id); groups != groups_of_.end()) {
    for (const std::string& group_id : groups->second) {
      if (const auto name = group_names_.find(group_id); name != group_names_.end()) {
        standing.groups.push_back(name->second);
      }
    }
  }
  std::sort(standing.groups.begin(), standing.groups.end());
  return standing;
}

void DirectoryIndex::index(scim::ResourceKind kind, const json& resource, bool add) {
  const std::string id = string_of(resource, "id");
  if (kind == scim::ResourceKind::kUser) {
    const std::string name = user_name_key(resource);
    if (add) {
      users_by_name_[name] = User{id, active_of(resource)};
    } else if (const auto it = users_by_name_.find(name);
               it != users_by_name_.end() && it->second.id == id) {
      users_by_name_.erase(it);
    }
    return;
  }
  if (add) {
    group_names_[id] = string_of(resource, "displayName");
  } else {
    group_names_.erase(id);
  }
  const json* members = scim::find_member(resource, "members");
  if (members == nullptr || !members->is_array()) return;
  for (const json& member : *members) {
    const std::string member_id = string_of(member, "value");
    if (add) {
      groups_of_[member_id].insert(id);
      continue;
    }
    const auto it = groups_of_.find(member_id);
    if (it == groups_of_.end()) continue;
    it->second.erase(id);
    if (it->second.empty()) groups_of_.erase(it);
  }
}

void DirectoryIndex::apply(const scim::DirectoryChange& change, const UserNameChanges& names) {
  std::unique_lock lock(mutex_);
  for (const scim::ResourceChange& resource : change.resources) {
    if (resource.before) index(resource.kind, *resource.before, false);
    if (resource.after) index(resource.kind, *resource.after, true);
  }
  for (const std::string& name : names.retired) retired_names_.insert(name);
  for (const std::string& name : names.revived) retired_names_.erase(name);
}

void DirectoryIndex::load(const std::vector<scim::StoredResource>& records,
                          const std::set<std::string>& retired_names) {
  std::unique_lock lock(mutex_);
  users_by_name_.clear();
  group_names_.clear();
  groups_of_.clear();
  retired_names_ = {retired_names.begin(), retired_names.end()};
  for (const scim::StoredResource& record : records) index(record.kind, record.resource, true);
}

}  // namespace allot
