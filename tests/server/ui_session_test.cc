// The web UI's cookie session through a real allotd (server/ui_routes.h,
// server/session_cookie.h): the cookie's attributes, the CSRF header on every
// change, logout (which revokes the token), and that neither the token nor a failed login leaves a
// cookie behind.
#include <string>

#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "allotd_test.h"

namespace allot::server_test {
namespace {

class UiSessionTest : public AllotdTest {
 protected:
  // A request with the given headers (no bearer token).
  httplib::Result send(const std::string& method, const std::string& path,
                       const httplib::Headers& headers, const std::string& body = "") {
    httplib::Client http("127.0.0.1", allotd_.port());
    http.set_read_timeout(std::chrono::seconds(30));
    if (method == "GET") return http.Get(path, headers);
    if (method == "DELETE") return http.Delete(path, headers);
    return http.Post(path, headers, body, "application/json");
  }

  // Logs in with the administrator's token; the cookie's "name=value" and the CSRF token.
  std::pair<std::string, std::string> log_in() {
    const httplib::Result res =
        send("POST", "/ui/session", {}, nlohmann::json{{"token", allotd_.admin_token()}}.dump());
    EXPECT_TRUE(res && res->status == 201) << (res ? res->body : "no answer");
    if (!res) return {};
    const std::string set_cookie = res->get_header_value("Set-Cookie");
    const nlohmann::json body = nlohmann::json::parse(res->body);
    return {set_cookie.substr(0, set_cookie.find(';')), body.value("csrfToken", "")};
  }
};

TEST_F(UiSessionTest, LoginSetsAStrictHttpOnlyCookieAndAnswersNoToken) {
  const httplib::Result res =
      send("POST", "/ui/session", {}, nlohmann::json{{"token", allotd_.admin_token()}}.dump());
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 201) << res->body;
  const std::string cookie = res->get_header_value("Set-Cookie");
  EXPECT_TRUE(cookie.starts_with("allot_session=allots_")) << cookie;
  EXPECT_NE(cookie.find("; HttpOnly"), std::string::npos) << cookie;
  EXPECT_NE(cookie.find("; SameSite=Strict"), std::string::npos) << cookie;
  EXPECT_NE(cookie.find("; Path=/"), std::string::npos) << cookie;
  EXPECT_EQ(cookie.find("Secure"), std::string::npos) << "plain HTTP: " << cookie;
  EXPECT_EQ(res->get_header_value("Cache-Control"), "no-store");
  const nlohmann::json body = nlohmann::json::parse(res->body);
  EXPECT_FALSE(body.contains("token")) << "the token lives in the HttpOnly cookie only";
  EXPECT_EQ(body.value("subject", ""), "admin");
  EXPECT_EQ(body.value("csrfToken", "").size(), 64U);
  const std::string token =
      cookie.substr(cookie.find('=') + 1, cookie.find(';') - cookie.find('=') - 1);
  EXPECT_EQ(res->body.find(token), std::string::npos);
}

TEST_F(UiSessionTest, TheCookieAuthenticatesAndEveryChangeNeedsItsCsrfToken) {
  const auto [cookie, csrf] = log_in();
  const httplib::Result read = send("GET", "/api/v1/workloads", {{"Cookie", cookie}});
  ASSERT_TRUE(read);
  EXPECT_EQ(read->status, 200) << read->body;
  const httplib::Result who = send("GET", "/ui/session", {{"Cookie", "a=b; " + cookie}});
  ASSERT_TRUE(who);
  EXPECT_EQ(nlohmann::json::parse(who->body).value("csrfToken", ""), csrf);

  const std::string review = R"({"verb": "list", "resource": "workloads"})";
  const httplib::Result bare = send("POST", "/api/v1/accessreviews", {{"Cookie", cookie}}, review);
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->status, 403) << bare->body;
  EXPECT_NE(bare->body.find("X-CSRF-Token"), std::string::npos) << bare->body;
  const httplib::Result wrong =
      send("POST", "/api/v1/accessreviews",
           {{"Cookie", cookie}, {"X-CSRF-Token", std::string(64, 'a')}}, review);
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->status, 403);
  const httplib::Result right =
      send("POST", "/api/v1/accessreviews", {{"Cookie", cookie}, {"X-CSRF-Token", csrf}}, review);
  ASSERT_TRUE(right);
  EXPECT_EQ(right->status, 200) << right->body;

  const httplib::Result forged =
      send("GET", "/api/v1/workloads", {{"Cookie", "allot_session=allots_x.y"}});
  ASSERT_TRUE(forged);
  EXPECT_EQ(forged->status, 401);
  const httplib::Result none = send("GET", "/api/v1/workloads", {});
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 401);
}

TEST_F(UiSessionTest, LogoutClearsTheCookieOnlyWithTheCsrfToken) {
  const auto [cookie, csrf] = log_in();
  const httplib::Result forged = send("DELETE", "/ui/session", {{"Cookie", cookie}});
  ASSERT_TRUE(forged);
  EXPECT_EQ(forged->status, 403) << "another site cannot log anyone out";
  EXPECT_TRUE(forged->get_header_value("Set-Cookie").empty());
  const httplib::Result out =
      send("DELETE", "/ui/session", {{"Cookie", cookie}, {"X-CSRF-Token", csrf}});
  ASSERT_TRUE(out);
  EXPECT_EQ(out->status, 200) << out->body;
  const std::string cleared = out->get_header_value("Set-Cookie");
  EXPECT_TRUE(cleared.starts_with("allot_session=;")) << cleared;
  EXPECT_NE(cleared.find("Max-Age=0"), std::string::npos) << cleared;
}

TEST_F(UiSessionTest, LogoutRevokesTheSessionTokenForGood) {
  const auto [cookie, csrf] = log_in();
  ASSERT_EQ(send("GET", "/api/v1/workloads", {{"Cookie", cookie}})->status, 200);
  const httplib::Result out =
      send("DELETE", "/ui/session", {{"Cookie", cookie}, {"X-CSRF-Token", csrf}});
  ASSERT_TRUE(out);
  ASSERT_EQ(out->status, 200) << out->body;
  EXPECT_TRUE(nlohmann::json::parse(out->body).value("revoked", false)) << out->body;
  // The cookie a browser (or anyone who copied it) still holds: refused.
  const httplib::Result after = send("GET", "/api/v1/workloads", {{"Cookie", cookie}});
  ASSERT_TRUE(after);
  EXPECT_EQ(after->status, 401) << after->body;
  EXPECT_NE(after->body.find("logged out"), std::string::npos) << after->body;
  const std::string token = cookie.substr(cookie.find('=') + 1);
  const httplib::Result bearer =
      send("GET", "/api/v1/workloads", {{"Authorization", "Bearer " + token}});
  ASSERT_TRUE(bearer);
  EXPECT_EQ(bearer->status, 401) << "the same token as a bearer token";

  // A session token of the API (allot login) logs out with itself as the bearer.
  const httplib::Result opened =
      send("POST", "/api/v1/sessions", {}, nlohmann::json{{"token", allotd_.admin_token()}}.dump());
  ASSERT_TRUE(opened && opened->status == 201);
  const std::string api_session = nlohmann::json::parse(opened->body).value("token", "");
  const httplib::Headers as_bearer = {{"Authorization", "Bearer " + api_session}};
  ASSERT_EQ(send("GET", "/api/v1/workloads", as_bearer)->status, 200);
  ASSERT_EQ(send("DELETE", "/ui/session", as_bearer)->status, 200);
  EXPECT_EQ(send("GET", "/api/v1/workloads", as_bearer)->status, 401);

  // Still refused after a restart (stored), while a new login works.
  ASSERT_EQ(allotd_.restart(), "");
  EXPECT_EQ(send("GET", "/api/v1/workloads", {{"Cookie", cookie}})->status, 401);
  EXPECT_EQ(send("GET", "/api/v1/workloads", as_bearer)->status, 401);
  const auto [fresh, fresh_csrf] = log_in();
  EXPECT_EQ(send("GET", "/api/v1/workloads", {{"Cookie", fresh}})->status, 200);
}

TEST_F(UiSessionTest, ARefusedLoginSetsNoCookie) {
  const httplib::Result res = send("POST", "/ui/session", {},
                                   R"({"token": "allot_not-a-real-token-at-all-xxxxxxxxxxxxxxx"})");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 401) << res->body;
  EXPECT_TRUE(res->get_header_value("Set-Cookie").empty());
  const httplib::Result bad = send("POST", "/ui/session", {}, "not json");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  // What a form of another site could send: refused before any check.
  httplib::Client http("127.0.0.1", allotd_.port());
  const httplib::Result form = http.Post(
      "/ui/session", nlohmann::json{{"token", allotd_.admin_token()}}.dump(), "text/plain");
  ASSERT_TRUE(form);
  EXPECT_EQ(form->status, 415) << form->body;
  EXPECT_TRUE(form->get_header_value("Set-Cookie").empty());
}

}  // namespace
}  // namespace allot::server_test
