// The web UI's static files and their headers (server/ui_routes.h), and the
// session cookie's helpers (server/session_cookie.h), in-process.
#include "server/ui_routes.h"

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "server/session_cookie.h"

namespace allot::server {
namespace {

HttpResponse get(const Router& router, const std::string& path) {
  HttpRequest request;
  request.method = "GET";
  request.path = path;
  HttpResponse response;
  router.dispatch(request, response);
  return response;
}

Router ui_router(std::shared_ptr<const UiAssets> assets) {
  Router router;
  add_ui_routes(router, std::move(assets));
  return router;
}

std::shared_ptr<const UiAssets> assets() {
  auto files = std::make_shared<UiAssets>();
  files->files["index.html"] = {"<!doctype html>", ui_content_type("index.html")};
  files->files["assets/main-ABC123.js"] = {"export {}", ui_content_type("main-ABC123.js")};
  return files;
}

TEST(UiRoutesTest, IndexIsRevalidatedAndHashedAssetsAreImmutable) {
  const Router router = ui_router(assets());
  const HttpResponse index = get(router, "/ui");
  EXPECT_EQ(index.status, 200);
  EXPECT_EQ(index.body, "<!doctype html>");
  EXPECT_EQ(index.get_header_value("Cache-Control"), "no-cache");
  EXPECT_EQ(index.get_header_value("Content-Type"), "text/html; charset=utf-8");
  const HttpResponse script = get(router, "/ui/assets/main-ABC123.js");
  EXPECT_EQ(script.status, 200);
  EXPECT_EQ(script.get_header_value("Cache-Control"), "public, max-age=31536000, immutable");
  EXPECT_EQ(script.get_header_value("Content-Type"), "text/javascript; charset=utf-8");
}

TEST(UiRoutesTest, EveryAnswerHasAStrictPolicyAndUnknownFilesAre404) {
  const Router router = ui_router(assets());
  for (const std::string path : {"/ui", "/ui/assets/main-ABC123.js", "/ui/nope.js"}) {
    const HttpResponse res = get(router, path);
    const std::string csp = res.get_header_value("Content-Security-Policy");
    EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << path;
    EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << path;
    EXPECT_EQ(csp.find("unsafe"), std::string::npos) << path;
    EXPECT_EQ(res.get_header_value("X-Content-Type-Options"), "nosniff") << path;
    EXPECT_EQ(res.get_header_value("X-Frame-Options"), "DENY") << path;
  }
  EXPECT_EQ(get(router, "/ui/nope.js").status, 404);
  EXPECT_EQ(get(router, "/ui/assets/../index.html").status, 404) << "no path escapes";
}

TEST(UiRoutesTest, WithoutAssetsTheUiSaysHowToBuildIt) {
  const HttpResponse res = get(ui_router(nullptr), "/ui");
  EXPECT_EQ(res.status, 404);
  EXPECT_NE(res.body.find("scripts/web.sh"), std::string::npos) << res.body;
}

TEST(UiRoutesTest, OnlyTheFilesTheLoginAndTheLogoutNeedNoLogin) {
  EXPECT_TRUE(is_public_ui_request("GET", "/ui"));
  EXPECT_TRUE(is_public_ui_request("GET", "/ui/assets/x.js"));
  EXPECT_TRUE(is_public_ui_request("POST", "/ui/session"));
  EXPECT_TRUE(is_public_ui_request("DELETE", "/ui/session"));
  EXPECT_FALSE(is_public_ui_request("GET", "/ui/session")) << "whoami needs the cookie";
  EXPECT_FALSE(is_public_ui_request("POST", "/ui/x"));
  EXPECT_FALSE(is_public_ui_request("GET", "/uix"));
  EXPECT_FALSE(is_public_ui_request("GET", "/api/v1/workloads"));
}

TEST(SessionCookieTest, FindsTheCookieAmongOthers) {
  EXPECT_EQ(session_cookie_value("allot_session=abc"), "abc");
  EXPECT_EQ(session_cookie_value("a=1; allot_session=abc ; b=2"), "abc");
  EXPECT_EQ(session_cookie_value("xallot_session=abc; b=2"), "");
  EXPECT_EQ(session_cookie_value(""), "");
}

TEST(SessionCookieTest, CsrfTokenIsBoundToTheSessionAndComparedWhole) {
  const std::string a = csrf_token_for("allots_a");
  EXPECT_EQ(a.size(), 64U);
  EXPECT_EQ(a, csrf_token_for("allots_a"));
  EXPECT_NE(a, csrf_token_for("allots_b"));
  EXPECT_TRUE(same_secret(a, a));
  EXPECT_FALSE(same_secret(a, a.substr(0, 63)));
  EXPECT_FALSE(same_secret("", ""));
}

TEST(SessionCookieTest, CookieAttributes) {
  EXPECT_EQ(session_set_cookie("t", false), "allot_session=t; Path=/; HttpOnly; SameSite=Strict");
  EXPECT_EQ(session_set_cookie("t", true),
            "allot_session=t; Path=/; HttpOnly; SameSite=Strict; Secure");
  EXPECT_NE(session_clear_cookie(true).find("Max-Age=0"), std::string::npos);
}

// allotd --external-url: an origin only; a trailing slash is dropped.
TEST(ExternalUrl, AnOriginIsKeptAndAnythingElseIsRefusedNamingTheFlag) {
  EXPECT_EQ(normalized_external_url("https://dash.example.com").value(),
            "https://dash.example.com");
  EXPECT_EQ(normalized_external_url("https://dash.example.com:8443/").value(),
            "https://dash.example.com:8443");
  EXPECT_EQ(normalized_external_url("http://[::1]:8080").value(), "http://[::1]:8080");
  for (const char* bad :
       {"dash.example.com", "ftp://dash.example.com", "https://", "https://dash.example.com/allot",
        "https://dash.example.com?x=1", "https://user@dash.example.com"}) {
    const Result<std::string> refused = normalized_external_url(bad);
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_NE(refused.status().message().find("--external-url"), std::string::npos) << bad;
  }
}

}  // namespace
}  // namespace allot::server
