#include "server/http/router.h"

#include <algorithm>
#include <exception>
#include <utility>

#include "base/check.h"
#include "server/http_responses.h"

namespace allot::server {
namespace {

constexpr std::string_view kAnySegment = "([^/]+)";

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

// A literal segment or alternative: no character the regular expressions
// gave a meaning to.
bool is_plain(std::string_view text) {
  return !text.empty() && text.find_first_of("()[]{}|^$.*+?\\/") == std::string_view::npos;
}

}  // namespace

PathPattern::Segment PathPattern::parse_segment(std::string_view text) {
  Segment segment;
  if (text == kAnySegment) {
    segment.kind = Segment::Kind::kAny;
    return segment;
  }
  if (text.size() > 2 && text.front() == '(' && text.back() == ')') {
    segment.kind = Segment::Kind::kOneOf;
    std::string_view rest = text.substr(1, text.size() - 2);
    while (true) {
      const size_t bar = std::min(rest.find('|'), rest.size());
      ALLOT_CHECK(is_plain(rest.substr(0, bar)));
      segment.literals.emplace_back(rest.substr(0, bar));
      if (bar == rest.size()) break;
      rest.remove_prefix(bar + 1);
    }
    return segment;
  }
  ALLOT_CHECK(is_plain(text));
  segment.literals.emplace_back(text);
  return segment;
}

PathPattern::PathPattern(std::string_view pattern) {
  ALLOT_CHECK(!pattern.empty() && pattern.front() == '/');
  pattern.remove_prefix(1);
  while (true) {
    // A group ends at its ')': "([^/]+)" holds a '/' of its own.
    const size_t close = pattern.starts_with('(') ? pattern.find(')') : 0;
    ALLOT_CHECK(close != std::string_view::npos);
    const size_t slash = std::min(pattern.find('/', close), pattern.size());
    segments_.push_back(parse_segment(pattern.substr(0, slash)));
    if (slash == pattern.size()) break;
    pattern.remove_prefix(slash + 1);
  }
}

bool PathPattern::match(std::string_view path, std::vector<std::string>& captures) const {
  if (path.empty() || path.front() != '/') return false;
  std::string_view rest = path.substr(1);
  captures.clear();
  captures.emplace_back(path);
  for (size_t i = 0; i < segments_.size(); ++i) {
    const size_t slash = std::min(rest.find('/'), rest.size());
    // The last segment must take the rest of the path; the others end at a '/'.
    const bool last = i + 1 == segments_.size();
    if (last != (slash == rest.size())) return false;
    const std::string_view text = rest.substr(0, slash);
    const Segment& segment = segments_[i];
    if (segment.kind == Segment::Kind::kAny) {
      if (text.empty()) return false;
    } else if (std::find(segment.literals.begin(), segment.literals.end(), text) ==
               segment.literals.end()) {
      return false;
    }
    if (segment.kind != Segment::Kind::kLiteral) captures.emplace_back(text);
    if (!last) rest.remove_prefix(slash + 1);
  }
  return true;
}

std::string route_label(std::string_view pattern) {
  std::string label;
  constexpr std::string_view kAny = "([^/]+)";
  size_t start = 0;
  for (size_t at = pattern.find(kAny); at != std::string_view::npos;
       at = pattern.find(kAny, start)) {
    label.append(pattern.substr(start, at - start));
    label += '*';
    start = at + kAny.size();
  }
  label.append(pattern.substr(start));
  return label;
}

void Router::add(std::string_view method, const std::string& pattern, HttpHandler handler) {
  routes_.push_back(
      Route{std::string(method), PathPattern(pattern), std::move(handler), route_label(pattern)});
}

std::string_view Router::dispatch(HttpRequest& request, HttpResponse& response) const {
  // Both arms string_views: with "GET" : request.method the common type is a
  // temporary std::string, and the view dangled (at -O2 every POST was a 405).
  const std::string_view method =
      request.method == "HEAD" ? std::string_view("GET") : std::string_view(request.method);
  std::string allowed;
  for (const Route& route : routes_) {
    if (!route.pattern.match(request.path, request.matches)) continue;
    if (route.method != method) {
      if (allowed.find(route.method) == std::string::npos) {
        allowed += (allowed.empty() ? "" : ", ") + route.method;
      }
      continue;
    }
    run_guarded(route.handler, request, response);
    return route.label;
  }
  request.matches.clear();
  answer_unmatched(request, allowed, response);
  return {};
}

}  // namespace allot::server
