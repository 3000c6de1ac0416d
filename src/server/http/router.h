// Router: maps a request's method and decoded path to its handler.
//
// Contract: routes are regular expressions over the whole decoded path
// (std::regex ECMAScript, matched with regex_match), tried in the order they
// were added; the first whose method and pattern match runs, with the
// capture groups in request.matches. HEAD is answered by the GET route (the
// connection sends no body). A path that matches no route is 404 and a path
// whose routes take other methods is 405 with an Allow header, both with the
// JSON error body of http_responses.h. Handlers must not throw; dispatch()
// turns an escaped exception into a 500 rather than losing the answer.
// Thread-safe for dispatch() once all routes are added.
#pragma once

#include <functional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "server/http/http_message.h"

namespace allot::server {

using HttpHandler = std::function<void(const HttpRequest&, HttpResponse&)>;

class Router {
 public:
  void add(std::string_view method, const std::string& pattern, HttpHandler handler);
  void get(const std::string& pattern, HttpHandler handler) {
    add("GET", pattern, std::move(handler));
  }
  void post(const std::string& pattern, HttpHandler handler) {
    add("POST", pattern, std::move(handler));
  }
  void del(const std::string& pattern, HttpHandler handler) {
    add("DELETE", pattern, std::move(handler));
  }

  // Fills request.matches (hence not const) and runs the matching handler.
  void dispatch(HttpRequest& request, HttpResponse& response) const;

 private:
  struct Route {
    std::string method;
    std::regex pattern;
    HttpHandler handler;
  };
  std::vector<Route> routes_;
};

}  // namespace allot::server
