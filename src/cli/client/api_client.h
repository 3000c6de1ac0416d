// ApiClient: the CLI's HTTP client for allotd's REST API (docs/api.md).
//
// Contract: one client per base URL ("http://host:port", normalised by
// server_address.h). get/post/del send one request and return the answer
// when its status is 2xx; an error answer becomes its Status
// (api_error.h: the server's {code, message, details}); a connection that
// cannot be made or breaks is kUnavailable with the message "cannot reach
// allotd at URL: <reason>" (connection_hint() says what to try). Timeouts
// come from ApiClientOptions. Does not retry. Not thread-safe; movable.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace httplib {  // NOLINT(readability-identifier-naming): cpp-httplib's own namespace
class Client;
}  // namespace httplib

namespace allot::cli {

inline constexpr std::string_view kJsonContentType = "application/json";
inline constexpr std::string_view kYamlContentType = "application/yaml";

struct ApiResponse {
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // names in lower case

  // The value of a header (any case), or "" when absent.
  [[nodiscard]] std::string header(std::string_view name) const;
  // The body as JSON. Errors: kInternal when allotd sent something else.
  [[nodiscard]] Result<nlohmann::json> json() const;
};

struct ApiClientOptions {
  std::chrono::milliseconds connect_timeout{5'000};
  std::chrono::milliseconds read_timeout{60'000};
  std::string bearer_token;  // sent as Authorization: Bearer; "" for none (credentials.h)
};

class ApiClient {
 public:
  // REQUIRES: base_url is "http://host:port" or "https://host:port".
  explicit ApiClient(std::string base_url, ApiClientOptions options = {});
  ~ApiClient();
  ApiClient(ApiClient&&) noexcept;
  ApiClient& operator=(ApiClient&&) noexcept;
  ApiClient(const ApiClient&) = delete;
  ApiClient& operator=(const ApiClient&) = delete;

  // `path` includes the query string (api_paths.h).
  Result<ApiResponse> get(const std::string& path);
  Result<ApiResponse> post(const std::string& path, const std::string& body,
                           std::string_view content_type);
  Result<ApiResponse> del(const std::string& path);

  [[nodiscard]] const std::string& base_url() const { return base_url_; }

 private:
  std::string base_url_;
  std::unique_ptr<httplib::Client> client_;
};

// What a person can do about an error from ApiClient ("" when nothing
// specific): for an unreachable server, how to start allotd or point the CLI
// at another one.
std::string connection_hint(const Status& status);

}  // namespace allot::cli
