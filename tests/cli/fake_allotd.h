// FakeAllotd: an in-process HTTP server that stands in for allotd in the
// CLI's client tests, answering with canned responses that follow
// docs/api.md and recording every request it gets.
//
// Contract: binds 127.0.0.1 on a free port (bind_to_any_port) in the
// constructor, so it accepts connections as soon as it is built, and serves
// on its own thread until destroyed. Routes are exact method + path (the
// query is not part of the path); a request without a route gets 404
// {"code": "not_found"}. Handlers run on the server's threads, one at a time
// under the fake's lock (so they must not call back into the fake); on() and
// requests() are safe from any thread.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

namespace allot::cli::testing {

struct RecordedRequest {
  std::string method;
  std::string path;    // without the query
  std::string target;  // path and query as sent
  std::map<std::string, std::string> params;
  std::string body;
  std::string content_type;
};

class FakeAllotd {
 public:
  using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;

  FakeAllotd();
  ~FakeAllotd();
  FakeAllotd(const FakeAllotd&) = delete;
  FakeAllotd& operator=(const FakeAllotd&) = delete;

  // "http://127.0.0.1:PORT".
  [[nodiscard]] std::string url() const;
  [[nodiscard]] int port() const { return port_; }

  void on(const std::string& method, const std::string& path, Handler handler);
  // Always answers `status` with `body` as JSON.
  void reply(const std::string& method, const std::string& path, int status,
             const nlohmann::json& body);
  // Answers allotd's error body {"code", "message", "details"}.
  void reply_error(const std::string& method, const std::string& path, int status,
                   const std::string& code, const std::string& message,
                   const std::string& details = "");

  [[nodiscard]] std::vector<RecordedRequest> requests() const;
  // The requests with this method and path, in order.
  [[nodiscard]] std::vector<RecordedRequest> requests_to(const std::string& method,
                                                         const std::string& path) const;

 private:
  void dispatch(const httplib::Request& request, httplib::Response& response);

  httplib::Server server_;
  int port_ = -1;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, Handler> routes_;
  std::vector<RecordedRequest> requests_;
};

// Sets a JSON body with allotd's content type.
void set_json(httplib::Response& response, int status, const nlohmann::json& body);

}  // namespace allot::cli::testing
