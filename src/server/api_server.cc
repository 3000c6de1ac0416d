#include "server/api_server.h"

#include <exception>
#include <optional>
#include <string>

#include <sys/socket.h>

#include "server/http_responses.h"
#include "server/request_framing.h"
#include "server/routes.h"

namespace allot::server {
namespace {

constexpr time_t kKeepAliveIdleSeconds = 2;

}  // namespace

ApiServer::ApiServer(ControlPlane& plane, ApiServerOptions options) : options_(options) {
  const size_t threads = options_.threads;
  http_.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http_.set_payload_max_length(options_.max_body_bytes);
  http_.set_keep_alive_max_count(100000);
  // cpp-httplib 0.11 (Debian 12) does not end an idle keep-alive connection
  // when stopped: stop() waits until each one times out. A short idle
  // timeout bounds how long SIGTERM waits for a connected, idle client.
  http_.set_keep_alive_timeout(kKeepAliveIdleSeconds);
  http_.set_tcp_nodelay(true);
  const httplib::Server::HandlerWithResponse on_error = [max = options_.max_body_bytes](
                                                            const httplib::Request& req,
                                                            httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    if (res.status == 413) {
      send_error(res, Status(ErrorCode::kResourceExhausted,
                             "the request body is larger than " + std::to_string(max) + " bytes"));
    } else if (res.status == 404) {
      send_error(res, not_found("no such route: " + req.method + " " + req.path));
    } else {
      send_error(res, res.status, "http_" + std::to_string(res.status), "the request failed");
    }
    return httplib::Server::HandlerResponse::Handled;
  };
  http_.set_error_handler(on_error);
  // Before any body is read (request_framing.h).
  http_.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
    const std::optional<FramingRefusal> refusal = framing_refusal(req);
    if (!refusal) return httplib::Server::HandlerResponse::Unhandled;
    send_error(res, refusal->http_status, refusal->code, refusal->message);
    res.set_header("Connection", "close");
    return httplib::Server::HandlerResponse::Handled;
  });
  http_.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr error) {
        std::string what = "unknown error";
        try {
          if (error) std::rethrow_exception(error);
        } catch (const std::exception& e) {
          what = e.what();
        } catch (...) {
        }
        send_error(res, Status(ErrorCode::kInternal, "the server failed: " + what));
      });
  add_health_routes(http_, plane);
  add_policy_routes(http_, plane);
  add_node_routes(http_, plane);
  add_workload_routes(http_, plane);
}

bool HttpServer::set_listen_backlog(int backlog) { return ::listen(svr_sock_, backlog) == 0; }

Result<int> HttpServer::bind_listener(const std::string& host, int port) {
  const int bound = port == 0 ? bind_to_any_port(host) : (bind_to_port(host, port) ? port : -1);
  if (bound <= 0 || !set_listen_backlog(SOMAXCONN)) {
    return Status(ErrorCode::kUnavailable, "cannot listen on " + host + ":" + std::to_string(port),
                  "--listen");
  }
  return bound;
}

Result<int> ApiServer::bind(const std::string& host, int port) {
  return http_.bind_listener(host, port);
}

void ApiServer::serve() { http_.listen_after_bind(); }

void ApiServer::stop() { http_.stop(); }

}  // namespace allot::server
