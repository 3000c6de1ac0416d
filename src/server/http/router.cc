#include "server/http/router.h"

#include <exception>
#include <utility>

#include "server/http_responses.h"

namespace allot::server {
namespace {

void answer_unmatched(const HttpRequest& request, const std::string& allowed,
                      HttpResponse& response) {
  if (allowed.empty()) {
    send_error(response, not_found("no such route: " + request.method + " " + request.path));
    return;
  }
  send_error(response, 405, "method_not_allowed",
             request.method + " is not allowed on " + request.path + "; allowed: " + allowed);
  response.set_header("Allow", allowed);
}

void run_guarded(const HttpHandler& handler, const HttpRequest& request, HttpResponse& response) {
  try {
    handler(request, response);
  } catch (const std::exception& error) {
    response = HttpResponse{};
    send_error(response,
               Status(ErrorCode::kInternal, std::string("the server failed: ") + error.what()));
  } catch (...) {
    response = HttpResponse{};
    send_error(response, Status(ErrorCode::kInternal, "the server failed"));
  }
}

}  // namespace

void Router::add(std::string_view method, const std::string& pattern, HttpHandler handler) {
  routes_.push_back(Route{std::string(method), std::regex(pattern), std::move(handler)});
}

void Router::dispatch(HttpRequest& request, HttpResponse& response) const {
  // Both arms string_views: with "GET" : request.method the common type is a
  // temporary std::string, and the view dangled (at -O2 every POST was a 405).
  const std::string_view method =
      request.method == "HEAD" ? std::string_view("GET") : std::string_view(request.method);
  std::string allowed;
  std::smatch match;
  for (const Route& route : routes_) {
    if (!std::regex_match(request.path, match, route.pattern)) continue;
    if (route.method != method) {
      if (allowed.find(route.method) == std::string::npos) {
        allowed += (allowed.empty() ? "" : ", ") + route.method;
      }
      continue;
    }
    request.matches.assign(match.begin(), match.end());
    run_guarded(route.handler, request, response);
    return;
  }
  answer_unmatched(request, allowed, response);
}

}  // namespace allot::server
