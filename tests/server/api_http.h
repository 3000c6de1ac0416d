// ApiHttp: a small HTTP client of a running allotd for the integration tests
// (cpp-httplib), and eventually(), the one way these tests wait.
//
// Contract:
// - Each call opens a connection to the port allotd has now (so it follows a
//   restart) and waits at most 30 s for the answer. A call that gets no
//   answer has status -1 and the transport error in `body`.
// - `json` is the parsed body when it is JSON, else null.
// - eventually() calls `probe` every 20 ms until it returns true, and returns
//   false when `deadline` passed first. Tests never sleep for a fixed time.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "allotd_process.h"

namespace allot::server_test {

struct Reply {
  int status = -1;
  std::string body;
  nlohmann::json json;
  httplib::Headers headers;

  [[nodiscard]] std::string header(const std::string& name) const;
  // "STATUS BODY", for failure messages.
  [[nodiscard]] std::string describe() const;
};

class ApiHttp {
 public:
  // Sends the first administrator's token (DATA/admin-token).
  explicit ApiHttp(const AllotdProcess& allotd) : allotd_(allotd) {}
  // Sends `token` instead ("" sends none).
  ApiHttp(const AllotdProcess& allotd, std::string token)
      : allotd_(allotd), token_(std::move(token)) {}

  [[nodiscard]] Reply get(const std::string& path) const;
  [[nodiscard]] Reply post(const std::string& path, const std::string& body = "",
                           const std::string& content_type = "application/yaml") const;
  [[nodiscard]] Reply post_json(const std::string& path, const nlohmann::json& body) const {
    return post(path, body.dump(), "application/json");
  }
  [[nodiscard]] Reply del(const std::string& path) const;

 private:
  [[nodiscard]] httplib::Client client() const;
  // Notes what the audit log must hold (AllotdProcess::note_sent).
  Reply noted(const std::string& method, const std::string& path, Reply reply) const;

  const AllotdProcess& allotd_;
  std::optional<std::string> token_;  // none: the administrator's
};

bool eventually(const std::function<bool()>& probe,
                std::chrono::milliseconds deadline = std::chrono::seconds(30),
                std::chrono::milliseconds every = std::chrono::milliseconds(20));

}  // namespace allot::server_test
