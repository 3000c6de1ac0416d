#include "server/ui_routes.h"

#include <string>
#include <utility>

#include "server/http_responses.h"

namespace allot::server {
namespace {

constexpr std::string_view kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'";

void set_security_headers(HttpResponse& res) {
  res.set_header("Content-Security-Policy", std::string(kContentSecurityPolicy));
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("X-Frame-Options", "DENY");
  res.set_header("Referrer-Policy", "no-referrer");
  res.set_header("Cross-Origin-Opener-Policy", "same-origin");
  res.set_header("Cross-Origin-Resource-Policy", "same-origin");
}

void send_file(const UiAssets* assets, const std::string& name, HttpResponse& res) {
  set_security_headers(res);
  if (assets == nullptr) {
    return send_error(res, not_found("the web UI is not installed: build it with scripts/web.sh "
                                     "(the build does) or start allotd with --ui-dir DIR"));
  }
  const auto found = assets->files.find(name);
  if (found == assets->files.end()) {
    return send_error(res, not_found("no file /ui/" + name + " in the web UI"));
  }
  const bool hashed = name.starts_with("assets/");
  res.set_header("Cache-Control", hashed ? "public, max-age=31536000, immutable" : "no-cache");
  res.set_content(found->second.body, found->second.content_type);
}

}  // namespace

std::string ui_content_type(std::string_view name) {
  const size_t dot = name.rfind('.');
  const std::string_view ext = dot == std::string_view::npos ? "" : name.substr(dot + 1);
  if (ext == "html") return "text/html; charset=utf-8";
  if (ext == "js") return "text/javascript; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "png") return "image/png";
  if (ext == "json") return "application/json";
  if (ext == "txt") return "text/plain; charset=utf-8";
  if (ext == "woff2") return "font/woff2";
  return "application/octet-stream";
}

bool is_public_ui_request(std::string_view method, std::string_view path) {
  if (path == "/ui/session") return method == "POST" || method == "DELETE";
  return (method == "GET" || method == "HEAD") && (path == "/ui" || path.starts_with("/ui/"));
}

void add_ui_routes(Router& http, std::shared_ptr<const UiAssets> assets) {
  // "/ui/" reaches here as "/ui" (api_server.cc): the router has no empty segment.
  http.get("/ui", [assets](const HttpRequest&, HttpResponse& res) {
    send_file(assets.get(), "index.html", res);
  });
  http.get("/ui/assets/([^/]+)", [assets](const HttpRequest& req, HttpResponse& res) {
    send_file(assets.get(), "assets/" + req.matches[1], res);
  });
  http.get("/ui/([^/]+)", [assets](const HttpRequest& req, HttpResponse& res) {
    send_file(assets.get(), req.matches[1], res);
  });
}

}  // namespace allot::server
