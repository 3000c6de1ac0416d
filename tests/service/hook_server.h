// A webhook receiver on loopback for the control-plane tests (Signals'
// webhooks, contract review notices): a real HTTP server whose first
// `failures` POSTs are answered 500.
#pragma once

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>

namespace allot::testing {

// A webhook receiver on loopback that answers 500 to its first `failures` POSTs.
class HookServer {
 public:
  explicit HookServer(int failures) : failures_(failures) {
    server_.Post("/hook", [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard lock(mu_);
      bodies_.push_back(req.body);
      res.status = static_cast<int>(bodies_.size()) <= failures_ ? 500 : 200;
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::yield();
  }
  ~HookServer() {
    server_.stop();
    thread_.join();
  }
  [[nodiscard]] std::string url() const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/hook";
  }
  std::vector<std::string> bodies() {
    std::lock_guard lock(mu_);
    return bodies_;
  }

 private:
  httplib::Server server_;
  int failures_;
  int port_ = 0;
  std::mutex mu_;
  std::vector<std::string> bodies_;
  std::thread thread_;
};

}  // namespace allot::testing
