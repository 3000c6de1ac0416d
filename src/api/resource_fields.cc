#include "api/resource_fields.h"

#include <optional>
#include <string>

namespace allot {
namespace {

Result<ResourceQuota> decode_resource_quota(const Field& field, Resource resource) {
  const auto quantity = [resource](const Field& f) { return f.as_quantity(resource); };
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  ResourceQuota quota;
  ALLOT_RETURN_IF_ERROR(map.read_required("nominal", quota.nominal, quantity));
  ALLOT_RETURN_IF_ERROR(map.read("borrowingLimit", quota.borrowing_limit, quantity));
  ALLOT_RETURN_IF_ERROR(map.read("lendingLimit", quota.lending_limit, quantity));
  ALLOT_RETURN_IF_ERROR(map.finish());
  if (quota.lending_limit && *quota.lending_limit > quota.nominal) {
    const std::string limit = format_quantity(resource, *quota.lending_limit);
    const std::string nominal = format_quantity(resource, quota.nominal);
    return map.get("lendingLimit")
        ->error("lendingLimit " + limit + " exceeds nominal " + nominal +
                "; nobody can lend more than its nominal quota");
  }
  return quota;
}

Result<FlavorQuota> decode_flavor_quota(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  FlavorQuota quota;
  ALLOT_RETURN_IF_ERROR(map.read_required_string("flavor", quota.flavor));
  ALLOT_ASSIGN_OR_RETURN(const Field resources_field, map.require("resources"));
  ALLOT_ASSIGN_OR_RETURN(MapReader resources, MapReader::open(resources_field));
  for (Resource r : kAllResources) {
    if (std::optional<Field> value = resources.get(resource_name(r))) {
      const auto index = static_cast<size_t>(r);
      ALLOT_ASSIGN_OR_RETURN(quota.resources[index], decode_resource_quota(*value, r));
      quota.declared[index] = true;
    }
  }
  ALLOT_RETURN_IF_ERROR(resources.finish());
  ALLOT_RETURN_IF_ERROR(map.finish());
  return quota;
}

}  // namespace

Result<ResourceVector> decode_resources(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  ResourceVector out;
  for (Resource r : kAllResources) {
    ALLOT_RETURN_IF_ERROR(
        map.read(resource_name(r), out[r], [r](const Field& f) { return f.as_quantity(r); }));
  }
  ALLOT_RETURN_IF_ERROR(map.finish());
  return out;
}

Result<std::vector<FlavorQuota>> decode_quota(const Field& field) {
  return decode_list<FlavorQuota>(field, decode_flavor_quota);
}

}  // namespace allot
