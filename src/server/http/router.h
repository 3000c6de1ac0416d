// Router: maps a request's method and decoded path to its handler.
//
// Contract: a route's pattern is a path of '/'-separated segments, each one
// of: a literal ("api"), "([^/]+)" (any one non-empty segment, captured) or
// "(a|b|c)" (one of the listed literals, captured). The pattern is split
// once, when the route is added, and matched segment by segment against the
// whole decoded path: the same language as the regular expressions the
// routes were first written in (std::regex, matched with regex_match), at a
// fraction of the cost per request. Any other pattern is a programming error
// (ALLOT_CHECK). Routes are tried in the order they were added; the first
// whose method and pattern match runs, with the captures in request.matches
// ([0] the whole path). HEAD is answered by the GET route (the connection
// sends no body). A path that matches no route is 404 and a path whose routes
// take other methods is 405 with an Allow header, both with the JSON error
// body of http_responses.h. Handlers must not throw; dispatch() turns an
// escaped exception into a 500 rather than losing the answer. Thread-safe for
// dispatch() once all routes are added.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "server/http/http_message.h"

namespace allot::server {

using HttpHandler = std::function<void(const HttpRequest&, HttpResponse&)>;

// One route's path pattern, split into segments (see the contract above).
class PathPattern {
 public:
  explicit PathPattern(std::string_view pattern);

  // True when `path` matches the whole pattern; then `captures` holds the
  // whole path and the captured segments, in order.
  bool match(std::string_view path, std::vector<std::string>& captures) const;

 private:
  struct Segment {
    enum class Kind { kLiteral, kAny, kOneOf };
    Kind kind = Kind::kLiteral;
    std::vector<std::string> literals;  // kLiteral: one; kOneOf: the alternatives
  };
  static Segment parse_segment(std::string_view text);
  std::vector<Segment> segments_;
};

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
  // Returns the route's label (route_label() of its pattern; empty when no
  // route matched), valid as long as the router: what /metrics counts
  // requests by, with bounded cardinality.
  std::string_view dispatch(HttpRequest& request, HttpResponse& response) const;

 private:
  struct Route {
    std::string method;
    PathPattern pattern;
    HttpHandler handler;
    std::string label;
  };
  std::vector<Route> routes_;
};

// A pattern as a metrics label: each "([^/]+)" capture becomes "*"
// ("/api/v1/namespaces/([^/]+)/workloads" -> "/api/v1/namespaces/*/workloads").
std::string route_label(std::string_view pattern);

}  // namespace allot::server
