#include "fake_allotd.h"

#include <cstdlib>
#include <iostream>

namespace allot::cli::testing {

void set_json(httplib::Response& response, int status, const nlohmann::json& body) {
  response.status = status;
  response.set_content(body.dump(), "application/json");
}

FakeAllotd::FakeAllotd() {
  const auto handle = [this](const httplib::Request& request, httplib::Response& response) {
    dispatch(request, response);
  };
  server_.Get(".*", handle);
  server_.Post(".*", handle);
  server_.Delete(".*", handle);
  port_ = server_.bind_to_any_port("127.0.0.1");
  if (port_ <= 0) {
    std::cerr << "FakeAllotd: cannot bind a port on 127.0.0.1\n";
    std::abort();
  }
  thread_ = std::thread([this] { server_.listen_after_bind(); });
  // stop() before the accept loop has started would be lost; wait for it.
  while (!server_.is_running()) std::this_thread::yield();
}

FakeAllotd::~FakeAllotd() {
  server_.stop();
  thread_.join();
}

std::string FakeAllotd::url() const { return "http://127.0.0.1:" + std::to_string(port_); }

void FakeAllotd::on(const std::string& method, const std::string& path, Handler handler) {
  const std::lock_guard<std::mutex> lock(mutex_);
  routes_[{method, path}] = std::move(handler);
}

void FakeAllotd::reply(const std::string& method, const std::string& path, int status,
                       const nlohmann::json& body) {
  on(method, path, [status, body](const httplib::Request&, httplib::Response& response) {
    set_json(response, status, body);
  });
}

void FakeAllotd::reply_error(const std::string& method, const std::string& path, int status,
                             const std::string& code, const std::string& message,
                             const std::string& details) {
  reply(method, path, status, {{"code", code}, {"message", message}, {"details", details}});
}

std::vector<RecordedRequest> FakeAllotd::requests() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return requests_;
}

std::vector<RecordedRequest> FakeAllotd::requests_to(const std::string& method,
                                                     const std::string& path) const {
  std::vector<RecordedRequest> matching;
  for (const RecordedRequest& request : requests()) {
    if (request.method == method && request.path == path) matching.push_back(request);
  }
  return matching;
}

void FakeAllotd::dispatch(const httplib::Request& request, httplib::Response& response) {
  RecordedRequest recorded{request.method, request.path,
                           request.target, {},
                           request.body,   request.get_header_value("Content-Type")};
  for (const auto& [key, value] : request.params) recorded.params[key] = value;
  // Handlers run under the lock, so that what they change is seen by the
  // test once the CLI has returned (requests() takes the same lock).
  const std::lock_guard<std::mutex> lock(mutex_);
  requests_.push_back(recorded);
  const auto it = routes_.find({request.method, request.path});
  if (it != routes_.end()) {
    it->second(request, response);
    return;
  }
  set_json(response, 404,
           {{"code", "not_found"},
            {"message", "no route " + request.method + " " + request.path},
            {"details", ""}});
}

}  // namespace allot::cli::testing
