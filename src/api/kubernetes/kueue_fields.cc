#include "api/kubernetes/kueue_fields.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "api/kubernetes/kubernetes_names.h"

namespace allot {
namespace {

using nlohmann::json;

std::string join(std::string_view path, std::string_view key) {
  return path.empty() ? std::string(key) : std::string(path) + "." + std::string(key);
}

std::string at(std::string_view path, size_t index) {
  return std::string(path) + "[" + std::to_string(index) + "]";
}

Status read_flavor_resource(const KueueDoc& doc, const json& entry, const std::string& path,
                            const std::vector<std::string>& covered, FlavorQuota& flavor) {
  ALLOT_RETURN_IF_ERROR(doc.expect_object(entry, path));
  ALLOT_RETURN_IF_ERROR(
      doc.expect_only(entry, path, {"name", "nominalQuota", "borrowingLimit", "lendingLimit"}));
  std::string name;
  ALLOT_RETURN_IF_ERROR(doc.read_string(entry, path, "name", name));
  Result<Resource> resource = resource_from_kubernetes(name);
  if (!resource.ok()) return doc.error(join(path, "name"), resource.status().message());
  if (std::find(covered.begin(), covered.end(), name) == covered.end()) {
    return doc.error(join(path, "name"), "resource '" + name + "' is not in coveredResources");
  }
  const size_t index = static_cast<size_t>(*resource);
  if (flavor.declared[index])
    return doc.error(join(path, "name"), "resource '" + name + "' repeats");
  ResourceQuota& quota = flavor.resources[index];
  const auto read = [&](std::string_view key, std::optional<int64_t>& out) -> Status {
    if (!entry.contains(key)) return Status();
    Result<int64_t> amount = quantity_from_json(*resource, entry.at(std::string(key)));
    if (!amount.ok()) return doc.error(join(path, key), amount.status().message());
    out = *amount;
    return Status();
  };
  std::optional<int64_t> nominal;
  ALLOT_RETURN_IF_ERROR(read("nominalQuota", nominal));
  if (!nominal) return doc.error(join(path, "nominalQuota"), "nominalQuota is required");
  quota.nominal = *nominal;
  ALLOT_RETURN_IF_ERROR(read("borrowingLimit", quota.borrowing_limit));
  ALLOT_RETURN_IF_ERROR(read("lendingLimit", quota.lending_limit));
  if (quota.lending_limit && *quota.lending_limit > quota.nominal) {
    return doc.error(join(path, "lendingLimit"), "lendingLimit exceeds nominalQuota");
  }
  flavor.declared[index] = true;
  return Status();
}

Status read_group_flavor(const KueueDoc& doc, const json& entry, const std::string& path,
                         const std::vector<std::string>& covered, FlavorQuota& flavor) {
  ALLOT_RETURN_IF_ERROR(doc.expect_object(entry, path));
  ALLOT_RETURN_IF_ERROR(doc.expect_only(entry, path, {"name", "resources"}));
  ALLOT_RETURN_IF_ERROR(doc.read_string(entry, path, "name", flavor.flavor));
  const std::string resources_path = join(path, "resources");
  const json resources = entry.value("resources", json::array());
  if (!resources.is_array()) return doc.error(resources_path, "resources is a list");
  for (size_t i = 0; i < resources.size(); ++i) {
    ALLOT_RETURN_IF_ERROR(
        read_flavor_resource(doc, resources[i], at(resources_path, i), covered, flavor));
  }
  return Status();
}

}  // namespace

Status KueueDoc::expect_object(const json& value, std::string_view path) const {
  if (value.is_object()) return Status();
  return error(path, "expected a map");
}

Status KueueDoc::expect_only(const json& object, std::string_view path,
                             std::initializer_list<std::string_view> keys) const {
  if (!object.is_object()) return Status();
  for (const auto& [key, value] : object.items()) {
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
    return error(
        join(path, key), "allot cannot express '" + key + "' of a Kueue " + kind + " (it reads: " +
                             [&] {
                               std::string list;
                               for (std::string_view k : keys) {
                                 list += (list.empty() ? "" : ", ") + std::string(k);
                               }
                               return list;
                             }() +
                             ")");
  }
  return Status();
}

Status KueueDoc::read_string(const json& object, std::string_view path, std::string_view key,
                             std::string& out) const {
  if (!object.is_object() || !object.contains(key)) return Status();
  const json& value = object.at(std::string(key));
  if (!value.is_string()) return error(join(path, key), "expected a string");
  out = value.get<std::string>();
  return Status();
}

Status read_resource_groups(const KueueDoc& doc, const json& groups, std::string_view path,
                            std::vector<FlavorQuota>& quota) {
  if (groups.is_null()) return Status();
  if (!groups.is_array()) return doc.error(path, "resourceGroups is a list");
  // Flavor per group: each flavor declares the resources of its own group.
  // Kueue allows a resource and a flavor in one group only; so does allot.
  std::map<std::string, std::string> covered_at;  // resource -> where covered
  std::map<std::string, std::string> flavor_at;   // flavor -> where listed
  for (size_t g = 0; g < groups.size(); ++g) {
    const std::string group_path = at(path, g);
    const json& group = groups[g];
    ALLOT_RETURN_IF_ERROR(doc.expect_object(group, group_path));
    ALLOT_RETURN_IF_ERROR(doc.expect_only(group, group_path, {"coveredResources", "flavors"}));
    std::vector<std::string> covered;
    const json names = group.value("coveredResources", json::array());
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string name_path = at(join(group_path, "coveredResources"), i);
      if (!names[i].is_string()) return doc.error(name_path, "expected a resource name");
      covered.push_back(names[i].get<std::string>());
      Result<Resource> resource = resource_from_kubernetes(covered.back());
      if (!resource.ok()) return doc.error(name_path, resource.status().message());
      auto [seen, fresh] = covered_at.try_emplace(covered.back(), name_path);
      if (!fresh) {
        return doc.error(name_path, "resource '" + covered.back() + "' is covered by " +
                                        seen->second +
                                        " already: a resource belongs to one "
                                        "resource group");
      }
    }
    const json flavors = group.value("flavors", json::array());
    for (size_t i = 0; i < flavors.size(); ++i) {
      const std::string flavor_path = at(join(group_path, "flavors"), i);
      FlavorQuota flavor;
      ALLOT_RETURN_IF_ERROR(read_group_flavor(doc, flavors[i], flavor_path, covered, flavor));
      auto [seen, fresh] = flavor_at.try_emplace(flavor.flavor, flavor_path);
      if (!fresh) {
        return doc.error(join(flavor_path, "name"),
                         "flavor '" + flavor.flavor + "' is listed at " + seen->second +
                             " already: allot gives a flavor one quota, in one resource group");
      }
      quota.push_back(std::move(flavor));
    }
  }
  return Status();
}

}  // namespace allot
