#include "cli/client/api_paths.h"

namespace allot::cli {
namespace {

bool unreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

constexpr std::string_view kApiRoot = "/api/v1/";

}  // namespace

std::string percent_encode(std::string_view text) {
  constexpr std::string_view kHex = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (unreserved(byte)) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0x0F];
    }
  }
  return out;
}

std::string with_query(std::string path, const QueryParams& params) {
  char separator = '?';
  for (const auto& [key, value] : params) {
    if (value.empty()) continue;
    path += separator;
    path += percent_encode(key) + "=" + percent_encode(value);
    separator = '&';
  }
  return path;
}

std::string cluster_collection_path(std::string_view plural) {
  return std::string(kApiRoot) + percent_encode(plural);
}

std::string cluster_object_path(std::string_view plural, std::string_view name) {
  return cluster_collection_path(plural) + "/" + percent_encode(name);
}

std::string namespaced_collection_path(std::string_view plural, std::string_view namespace_name) {
  if (namespace_name.empty()) return std::string(kApiRoot) + percent_encode(plural);
  return std::string(kApiRoot) + "namespaces/" + percent_encode(namespace_name) + "/" +
         percent_encode(plural);
}

std::string namespaced_object_path(std::string_view plural, std::string_view namespace_name,
                                   std::string_view name) {
  return namespaced_collection_path(plural, namespace_name) + "/" + percent_encode(name);
}

std::string workloads_path(std::string_view namespace_name) {
  return namespaced_collection_path("workloads", namespace_name);
}

std::string workload_path(std::string_view namespace_name, std::string_view name,
                          std::string_view suffix) {
  std::string path = workloads_path(namespace_name) + "/" + percent_encode(name);
  if (!suffix.empty()) {
    path += "/";
    path += suffix;
  }
  return path;
}

std::string service_accounts_path(std::string_view namespace_name) {
  if (namespace_name.empty()) return std::string(kApiRoot) + "serviceaccounts";
  return std::string(kApiRoot) + "namespaces/" + percent_encode(namespace_name) +
         "/serviceaccounts";
}

std::string service_account_path(std::string_view namespace_name, std::string_view name,
                                 std::string_view suffix) {
  std::string path = service_accounts_path(namespace_name) + "/" + percent_encode(name);
  if (!suffix.empty()) {
    path += "/";
    path += suffix;
  }
  return path;
}

}  // namespace allot::cli
