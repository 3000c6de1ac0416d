#include "api_http.h"

#include <thread>
#include <utility>

namespace allot::server_test {
namespace {

Reply reply_of(const httplib::Result& result) {
  Reply reply;
  if (!result) {
    reply.body = "no answer: " + httplib::to_string(result.error());
    return reply;
  }
  reply.status = result->status;
  reply.body = result->body;
  reply.headers = result->headers;
  if (result->get_header_value("Content-Type").starts_with("application/json")) {
    reply.json = nlohmann::json::parse(reply.body, nullptr, false);
  }
  return reply;
}

}  // namespace

std::string Reply::header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? std::string() : it->second;
}

std::string Reply::describe() const { return std::to_string(status) + " " + body; }

httplib::Client ApiHttp::client() const {
  httplib::Client http("127.0.0.1", allotd_.port());
  http.set_connection_timeout(std::chrono::seconds(5));
  http.set_read_timeout(std::chrono::seconds(30));
  http.set_write_timeout(std::chrono::seconds(30));
  // Every route but the probes needs a login: the tests act as the first
  // administrator unless given another token.
  if (const std::string token = token_.value_or(allotd_.admin_token()); !token.empty()) {
    http.set_bearer_token_auth(token);
  }
  return http;
}

Reply ApiHttp::noted(const std::string& method, const std::string& path, Reply reply) const {
  if (method != "GET" || reply.status == 401 || reply.status == 403) {
    allotd_.note_sent({method, path, reply.status});
  }
  return reply;
}

Reply ApiHttp::get(const std::string& path) const {
  return noted("GET", path, reply_of(client().Get(path)));
}

Reply ApiHttp::post(const std::string& path, const std::string& body,
                    const std::string& content_type) const {
  return noted("POST", path, reply_of(client().Post(path, body, content_type)));
}

Reply ApiHttp::del(const std::string& path) const {
  return noted("DELETE", path, reply_of(client().Delete(path)));
}

bool eventually(const std::function<bool()>& probe, std::chrono::milliseconds deadline,
                std::chrono::milliseconds every) {
  const auto until = std::chrono::steady_clock::now() + deadline;
  while (true) {
    if (probe()) return true;
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(every);
  }
}

}  // namespace allot::server_test
