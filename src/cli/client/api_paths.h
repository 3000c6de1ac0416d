// ApiPaths: the request paths of allotd's REST API (docs/api.md), built in
// one place so that every verb sends the same, correctly escaped URLs.
//
// Contract: names and query values are percent-encoded (RFC 3986 unreserved
// characters stay as they are); query parameters keep the order given and
// empty values are left out. Pure functions.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace allot::cli {

using QueryParams = std::vector<std::pair<std::string, std::string>>;

std::string percent_encode(std::string_view text);

// `path` + "?k=v&..." (nothing when every value is empty).
std::string with_query(std::string path, const QueryParams& params);

// /api/v1/{kind} and /api/v1/{kind}/{name}, for cluster-scoped kinds and nodes.
std::string cluster_collection_path(std::string_view plural);
std::string cluster_object_path(std::string_view plural, std::string_view name);

// /api/v1/{plural} (namespace "") or /api/v1/namespaces/{ns}/{plural}, and
// /api/v1/namespaces/{ns}/{plural}/{name}: namespaced kinds (roles,
// rolebindings). REQUIRES (object path): namespace_name is not empty.
std::string namespaced_collection_path(std::string_view plural, std::string_view namespace_name);
std::string namespaced_object_path(std::string_view plural, std::string_view namespace_name,
                                   std::string_view name);

// /api/v1/workloads (namespace "") or /api/v1/namespaces/{ns}/workloads.
std::string workloads_path(std::string_view namespace_name);
// /api/v1/namespaces/{ns}/workloads/{name}[/suffix]; suffix: "events", "logs",
// "cancel". REQUIRES: namespace_name is not empty.
std::string workload_path(std::string_view namespace_name, std::string_view name,
                          std::string_view suffix = {});

// /api/v1/serviceaccounts (namespace "") or /api/v1/namespaces/{ns}/serviceaccounts.
std::string service_accounts_path(std::string_view namespace_name);
// /api/v1/namespaces/{ns}/serviceaccounts/{name}[/suffix]; suffix: "tokens",
// "tokens/{id}" (the id escaped by the caller). REQUIRES: namespace_name is not empty.
std::string service_account_path(std::string_view namespace_name, std::string_view name,
                                 std::string_view suffix = {});

inline constexpr std::string_view kApplyPath = "/api/v1/apply";
inline constexpr std::string_view kTopPath = "/api/v1/top";
inline constexpr std::string_view kUsageReportPath = "/api/v1/reports/usage";
inline constexpr std::string_view kBackendUsagePath = "/api/v1/reports/usage/backend";

}  // namespace allot::cli
