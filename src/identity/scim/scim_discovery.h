// The SCIM discovery documents (RFC 7644 section 4, RFC 7643 sections 5-7):
// /ServiceProviderConfig, /ResourceTypes and /Schemas, as allotd serves them.
//
// Contract: what they announce is what this library does: PATCH supported,
// filter supported with maxResults (the directory's max page size), bulk,
// sort and etag not supported, changePassword supported (the password goes
// to the caller to hash), authentication by an OAuth bearer token. The
// /ResourceTypes and /Schemas documents are ListResponses; each entry is also
// available alone (/ResourceTypes/User, /Schemas/<urn>). Pure, thread-safe.
#pragma once

#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "identity/scim/scim_schema.h"

namespace allot::scim {

struct DiscoveryOptions {
  std::string_view base_location = "/scim/v2";
  int64_t max_results = 1000;  // the directory's max page size
  std::string_view documentation_uri = {};
};

nlohmann::json service_provider_config(const DiscoveryOptions& options);

nlohmann::json resource_type(ResourceKind kind, const DiscoveryOptions& options);
nlohmann::json resource_types(const DiscoveryOptions& options);

nlohmann::json schemas(const DiscoveryOptions& options);
// kNotFound for an unknown URN.
Result<nlohmann::json> schema(std::string_view urn, const DiscoveryOptions& options);

}  // namespace allot::scim
