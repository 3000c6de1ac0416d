#include "server/safe_mode_server.h"

#include <utility>

#include <nlohmann/json.hpp>

#include "server/api_server.h"
#include "server/http_responses.h"

namespace allot::server {
namespace {

std::string status_word(NotServingMode mode) {
  return mode == NotServingMode::kStandby ? "standby" : "safe mode";
}

std::string refusal(NotServingMode mode) {
  if (mode == NotServingMode::kStandby) {
    return "allotd is a standby: another allotd leads the shared store; send requests to the "
           "leader (this one takes over when the leader goes)";
  }
  return "allotd is in safe mode: its stored state cannot be loaded; repair or move the data "
         "folder and restart allotd";
}

Router safe_mode_routes(const std::string& reason, NotServingMode mode) {
  Router router;
  router.get("/healthz", [](const HttpRequest&, HttpResponse& res) {
    send_json(res, 200, {{"status", "ok"}});
  });
  router.get("/readyz", [reason, mode](const HttpRequest&, HttpResponse& res) {
    send_json(res, 503, {{"status", status_word(mode)}, {"reason", reason}});
  });
  return router;
}

HttpServerOptions small_server(size_t threads) {
  HttpServerOptions options;
  options.worker_threads = threads;
  options.max_body_bytes = size_t{64} << 10;
  return options;
}

}  // namespace

SafeModeServer::SafeModeServer(std::string reason, size_t threads, NotServingMode mode)
    : reason_(std::move(reason)),
      mode_(mode),
      router_(safe_mode_routes(reason_, mode_)),
      http_(small_server(threads), service()) {}

HttpService SafeModeServer::service() const {
  HttpService service;
  // Everything but the two probes, whatever the method or path, before its body.
  service.refuse_before_body = [this](const HttpRequest& head) -> std::optional<HttpResponse> {
    if (head.method == "GET" && (head.path == "/healthz" || head.path == "/readyz")) {
      return std::nullopt;
    }
    HttpResponse response;
    send_error(response, Status(ErrorCode::kUnavailable, refusal(mode_), reason_));
    return response;
  };
  service.handle = [this](HttpRequest& request, HttpResponse& response) {
    router_.dispatch(request, response);
  };
  return service;
}

Result<int> SafeModeServer::bind(const std::string& host, int port) {
  return http_.bind(host, port);
}

void SafeModeServer::serve() { http_.serve(); }

void SafeModeServer::stop() { http_.stop(); }

}  // namespace allot::server
