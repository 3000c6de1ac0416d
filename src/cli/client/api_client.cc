#include "cli/client/api_client.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include <httplib.h>

#include "cli/client/api_error.h"

namespace allot::cli {
namespace {

constexpr std::string_view kUnreachablePrefix = "cannot reach allotd at ";

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string reason_in_words(httplib::Error error) {
  switch (error) {
    case httplib::Error::Connection: return "connection refused or host unreachable";
    case httplib::Error::ConnectionTimeout: return "no connection within the connect timeout";
    case httplib::Error::Read: return "the connection broke or no answer came in time";
    case httplib::Error::Write: return "the request could not be sent";
    case httplib::Error::SSLConnection:
    case httplib::Error::SSLLoadingCerts:
    case httplib::Error::SSLServerVerification:
      return "TLS failure (" + httplib::to_string(error) + ")";
    default: return "HTTP client error " + httplib::to_string(error);
  }
}

template <typename Duration>
void split_seconds(Duration duration, time_t& seconds, time_t& micros) {
  const auto total = std::chrono::duration_cast<std::chrono::microseconds>(duration).count();
  seconds = static_cast<time_t>(total / 1'000'000);
  micros = static_cast<time_t>(total % 1'000'000);
}

}  // namespace

std::string ApiResponse::header(std::string_view name) const {
  const auto it = headers.find(lower(name));
  return it == headers.end() ? std::string() : it->second;
}

Result<nlohmann::json> ApiResponse::json() const {
  nlohmann::json parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    return Status(ErrorCode::kInternal, "allotd answered with a body that is not JSON",
                  "HTTP " + std::to_string(status));
  }
  return parsed;
}

ApiClient::ApiClient(std::string base_url, ApiClientOptions options)
    : base_url_(std::move(base_url)), client_(std::make_unique<httplib::Client>(base_url_)) {
  time_t seconds = 0;
  time_t micros = 0;
  split_seconds(options.connect_timeout, seconds, micros);
  client_->set_connection_timeout(seconds, micros);
  split_seconds(options.read_timeout, seconds, micros);
  client_->set_read_timeout(seconds, micros);
  // Without it, Nagle's algorithm and the server's delayed ACK add about
  // 40 ms to every POST (measured by allot-bench api).
  client_->set_tcp_nodelay(true);
  client_->set_write_timeout(seconds, micros);
  client_->set_default_headers({{"Accept", "application/json"}, {"User-Agent", "allot-cli"}});
  if (!options.bearer_token.empty()) client_->set_bearer_token_auth(options.bearer_token);
}

ApiClient::~ApiClient() = default;
ApiClient::ApiClient(ApiClient&&) noexcept = default;
ApiClient& ApiClient::operator=(ApiClient&&) noexcept = default;

namespace {

Result<ApiResponse> to_response(const httplib::Result& result, const std::string& base_url) {
  if (!result) {
    return Status(ErrorCode::kUnavailable, std::string(kUnreachablePrefix) + base_url + ": " +
                                               reason_in_words(result.error()));
  }
  ApiResponse response;
  response.status = result->status;
  response.body = result->body;
  for (const auto& [name, value] : result->headers) {
    response.headers.emplace(lower(name), value);
  }
  if (response.status < 200 || response.status >= 300) {
    return status_from_error_answer(response.status, response.body);
  }
  return response;
}

}  // namespace

Result<ApiResponse> ApiClient::get(const std::string& path) {
  return to_response(client_->Get(path), base_url_);
}

Result<ApiResponse> ApiClient::post(const std::string& path, const std::string& body,
                                    std::string_view content_type) {
  return to_response(client_->Post(path, body, std::string(content_type)), base_url_);
}

Result<ApiResponse> ApiClient::del(const std::string& path) {
  return to_response(client_->Delete(path), base_url_);
}

std::string connection_hint(const Status& status) {
  if (status.code() != ErrorCode::kUnavailable ||
      !status.message().starts_with(kUnreachablePrefix)) {
    return {};
  }
  return "is allotd running there? Start it with 'allotd --listen HOST:PORT', or point the CLI "
         "at it with --server URL, the ALLOT_SERVER variable or 'server:' in "
         "~/.config/allot/config.yaml";
}

}  // namespace allot::cli
