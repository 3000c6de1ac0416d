#include "service/control/http_webhook_sender.h"

#include <ctime>

#include <httplib.h>

namespace allot {

Status HttpWebhookSender::post(const std::string& url, const std::string& body) {
  const size_t host_start = url.find("://");
  if (host_start == std::string::npos) return invalid_argument("webhook URL without a scheme");
  const size_t path_start = url.find('/', host_start + 3);
  const std::string origin = path_start == std::string::npos ? url : url.substr(0, path_start);
  const std::string path = path_start == std::string::npos ? "/" : url.substr(path_start);
  httplib::Client client(origin);
  const auto seconds = static_cast<time_t>(timeout_.ms() / 1000);
  const auto micros = static_cast<time_t>(timeout_.ms() % 1000 * 1000);
  client.set_connection_timeout(seconds, micros);
  client.set_read_timeout(seconds, micros);
  client.set_write_timeout(seconds, micros);
  client.set_follow_location(false);
  const httplib::Result result = client.Post(path, body, "application/json");
  if (!result) {
    return Status(ErrorCode::kUnavailable,
                  "webhook " + origin + " unreachable: " + httplib::to_string(result.error()));
  }
  if (result->status < 200 || result->status >= 300) {
    return Status(ErrorCode::kUnavailable,
                  "webhook " + origin + " answered " + std::to_string(result->status));
  }
  return {};
}

}  // namespace allot
