// KueueFields: typed, located reads of one imported Kueue document (JSON from
// YAML), for kueue_import.cc and kueue_quota_import.cc. Internal.
//
// Contract: `where` is the document's location ("objects.yaml: document 3
// (ClusterQueue/a)"); every error's details are where + ": " + the field's
// path. expect_only() refuses any key outside the list with "allot cannot
// express <field> of a Kueue <kind>". Pure.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "model/quota.h"

namespace allot {

struct KueueDoc {
  std::string where;  // "objects.yaml: document 3 (ClusterQueue/a)"
  std::string kind;
  std::string api_version;

  [[nodiscard]] Status error(std::string_view path, std::string message) const {
    return invalid_argument(std::move(message), where + ": " + std::string(path));
  }
  // Error unless `value` (at `path`) is a map.
  Status expect_object(const nlohmann::json& value, std::string_view path) const;
  Status expect_only(const nlohmann::json& object, std::string_view path,
                     std::initializer_list<std::string_view> keys) const;
  Status read_string(const nlohmann::json& object, std::string_view path, std::string_view key,
                     std::string& out) const;
};

// spec.resourceGroups of a ClusterQueue or Cohort into allot's flavor quotas:
// flavor per group, each flavor declaring the resources its group covers,
// flavors in group order. A resource covered by two groups or a flavor listed
// twice is an error naming the second place.
Status read_resource_groups(const KueueDoc& doc, const nlohmann::json& groups,
                            std::string_view path, std::vector<FlavorQuota>& quota);

}  // namespace allot
