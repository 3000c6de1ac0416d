#include "server/safe_mode_server.h"

#include <utility>

#include <nlohmann/json.hpp>

#include "server/http_responses.h"

namespace allot::server {

SafeModeServer::SafeModeServer(std::string reason, size_t threads) : reason_(std::move(reason)) {
  http_.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http_.set_payload_max_length(size_t{64} << 10);
  http_.Get("/healthz", [](const httplib::Request&, httplib::Response& res) {
    send_json(res, 200, {{"status", "ok"}});
  });
  http_.Get("/readyz", [this](const httplib::Request&, httplib::Response& res) {
    send_json(res, 503, {{"status", "safe mode"}, {"reason", reason_}});
  });
  // Everything else, whatever the method or path.
  http_.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    if (req.method == "GET" && (req.path == "/healthz" || req.path == "/readyz")) {
      return httplib::Server::HandlerResponse::Unhandled;
    }
    send_error(res, Status(ErrorCode::kUnavailable,
                           "allotd is in safe mode: its stored state cannot be loaded; repair or "
                           "move the data folder and restart allotd",
                           reason_));
    res.set_header("Connection", "close");
    return httplib::Server::HandlerResponse::Handled;
  });
}

Result<int> SafeModeServer::bind(const std::string& host, int port) {
  return http_.bind_listener(host, port);
}

void SafeModeServer::serve() { http_.listen_after_bind(); }

void SafeModeServer::stop() { http_.stop(); }

}  // namespace allot::server
