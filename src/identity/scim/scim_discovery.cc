#include "identity/scim/scim_discovery.h"

#include <string>

#include "identity/scim/scim_directory.h"
#include "identity/scim/scim_error.h"

namespace allot::scim {
namespace {

using json = nlohmann::json;

json list_of(json resources) {
  const size_t size = resources.size();
  return {{"schemas", {kListResponseSchema}},
          {"totalResults", size},
          {"startIndex", 1},
          {"itemsPerPage", size},
          {"Resources", std::move(resources)}};
}

}  // namespace

json service_provider_config(const DiscoveryOptions& options) {
  json config = {
      {"schemas", {"urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"}},
      {"patch", {{"supported", true}}},
      {"bulk", {{"supported", false}, {"maxOperations", 0}, {"maxPayloadSize", 0}}},
      {"filter", {{"supported", true}, {"maxResults", options.max_results}}},
      {"changePassword", {{"supported", true}}},
      {"sort", {{"supported", false}}},
      {"etag", {{"supported", false}}},
      {"authenticationSchemes",
       {{{"type", "oauthbearertoken"},
         {"name", "OAuth Bearer Token"},
         {"description", "A bearer token in the Authorization header (allotd's SCIM token)."},
         {"primary", true}}}},
      {"meta",
       {{"resourceType", "ServiceProviderConfig"},
        {"location", std::string(options.base_location) + "/ServiceProviderConfig"}}}};
  if (!options.documentation_uri.empty()) {
    config["documentationUri"] = std::string(options.documentation_uri);
  }
  return config;
}

json resource_type(ResourceKind kind, const DiscoveryOptions& options) {
  const std::string name(resource_type_name(kind));
  json extensions = json::array();
  for (const SchemaDef* extension : extension_schemas(kind)) {
    extensions.push_back({{"schema", extension->id}, {"required", false}});
  }
  json type = {{"schemas", {"urn:ietf:params:scim:schemas:core:2.0:ResourceType"}},
               {"id", name},
               {"name", name},
               {"endpoint", std::string(resource_endpoint(kind))},
               {"description", kind == ResourceKind::kUser ? "User Account" : "Group"},
               {"schema", core_schema(kind).id},
               {"meta",
                {{"resourceType", "ResourceType"},
                 {"location", std::string(options.base_location) + "/ResourceTypes/" + name}}}};
  if (!extensions.empty()) type["schemaExtensions"] = std::move(extensions);
  return type;
}

json resource_types(const DiscoveryOptions& options) {
  return list_of(json::array(
      {resource_type(ResourceKind::kUser, options), resource_type(ResourceKind::kGroup, options)}));
}

json schemas(const DiscoveryOptions& options) {
  json all = json::array();
  for (const SchemaDef* schema : all_schemas()) {
    all.push_back(schema_to_json(*schema, options.base_location));
  }
  return list_of(std::move(all));
}

Result<json> schema(std::string_view urn, const DiscoveryOptions& options) {
  const SchemaDef* found = find_schema(urn);
  if (found == nullptr) return not_found("no schema " + quote_input(urn));
  return schema_to_json(*found, options.base_location);
}

}  // namespace allot::scim
