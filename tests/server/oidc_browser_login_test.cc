// Issue 16 item 2: the web dashboard's OIDC login (the authorization code
// grant with PKCE, ui_oidc_routes.cc) through a real allotd and the tests'
// real OpenID provider (scripts/oidc-provider, ctest fixture
// `oidc_provider`). A TestBrowser plays the person's browser at the issuer
// (sign-in and consent); this file plays it at allotd, with the cookies a
// browser would keep. Refusals: a state this browser did not start, a state
// used twice, a code redeemed with another login's verifier, an ID token
// issued for another nonce, the issuer's own error.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "allotd_test.h"
#include "test_browser.h"

namespace allot::server_test {
namespace {

using nlohmann::json;

constexpr char kClient[] = "allot-cli";

std::string oidc_dir() {
  const char* dir = std::getenv("ALLOT_TEST_OIDC_DIR");
  return dir == nullptr ? "" : dir;
}

std::string issuer_of_provider() {
  std::ifstream in(oidc_dir() + "/issuer");
  std::string issuer;
  std::getline(in, issuer);
  return issuer;
}

// What a browser gets from allotd: the status, the Location, the cookies set.
struct Visit {
  int status = 0;
  std::string location;
  std::map<std::string, std::string> cookies;  // name -> value ("" when cleared)
  std::string body;
};

// A cookie `visit` set ("" when cleared), or "(not set)".
std::string cookie_of(const Visit& visit, const std::string& name) {
  const auto found = visit.cookies.find(name);
  return found == visit.cookies.end() ? "(not set)" : found->second;
}

// The path and query of an absolute URL on allotd ("http://HOST:PORT/PATH?Q").
std::string path_of(const std::string& url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  const size_t slash = url.find('/', scheme + 3);
  return slash == std::string::npos ? "/" : url.substr(slash);
}

// The value of query parameter `name` in `url` (not decoded).
std::string query_value(const std::string& url, const std::string& name) {
  for (const std::string lead : {"?", "&"}) {
    const size_t at = url.find(lead + name + "=");
    if (at == std::string::npos) continue;
    const size_t start = at + lead.size() + name.size() + 1;
    return url.substr(start, url.find('&', start) - start);
  }
  return "";
}

// `url` with query parameter `name` replaced by `value`.
std::string with_query_value(const std::string& url, const std::string& name,
                             const std::string& value) {
  const std::string old = query_value(url, name);
  const size_t at = url.find(name + "=" + old);
  return url.substr(0, at) + name + "=" + value + url.substr(at + name.size() + 1 + old.size());
}

class OidcBrowserLoginTest : public AllotdTest {
 protected:
  void SetUp() override {
    issuer_ = issuer_of_provider();
    if (issuer_.empty()) GTEST_SKIP() << "no provider: run through ctest (fixture oidc_provider)";
    AllotdTest::SetUp();
    const Reply bound = api_.post("/api/v1/apply", R"({"apiVersion": "rbac.authorization.k8s.io/v1",
      "kind": "ClusterRoleBinding", "metadata": {"name": "platform-admins"},
      "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                  "name": "cluster-admin"},
      "subjects": [{"kind": "Group", "name": "platform-admins"}]})",
                                  "application/json");
    ASSERT_EQ(bound.status, 200) << bound.describe();
  }

  std::vector<std::string> allotd_flags() override {
    return {"--oidc-issuer", issuer_,         "--oidc-client-id",
            kClient,         "--oidc-scopes", "openid profile groups"};
  }

  // GET `path` on allotd with `cookies`, redirects not followed.
  Visit visit(const std::string& path, const std::map<std::string, std::string>& cookies = {}) {
    httplib::Client http("127.0.0.1", allotd_.port());
    http.set_read_timeout(std::chrono::seconds(30));
    httplib::Headers headers;
    std::string cookie;
    for (const auto& [name, value] : cookies) cookie += name + "=" + value + "; ";
    if (!cookie.empty()) headers.emplace("Cookie", cookie);
    const httplib::Result res = http.Get(path, headers);
    Visit visit;
    if (!res) return visit;
    visit.status = res->status;
    visit.body = res->body;
    visit.location = res->get_header_value("Location");
    for (const auto& [name, value] : res->headers) {
      if (name != "Set-Cookie") continue;
      const size_t eq = value.find('=');
      const size_t end = value.find(';');
      visit.cookies[value.substr(0, eq)] =
          value.find("Max-Age=0") != std::string::npos ? "" : value.substr(eq + 1, end - eq - 1);
    }
    return visit;
  }

  // GET /ui/oidc/login: the redirect to the issuer, with its state cookie.
  Visit start(const std::string& query = "") {
    Visit started = visit("/ui/oidc/login" + query);
    EXPECT_EQ(started.status, 303) << started.body;
    EXPECT_TRUE(started.location.starts_with(issuer_ + "/auth?")) << started.location;
    EXPECT_FALSE(started.cookies["allot_oidc_state"].empty());
    return started;
  }

  // The person signs in at the issuer: the callback URL it sends the browser to.
  std::string sign_in(const std::string& authorization_url, const std::string& user) {
    oidc::testing::TestBrowser browser(issuer_);
    std::string redirect;
    EXPECT_EQ(browser.authorize(authorization_url, user, user + "-password", redirect), "");
    EXPECT_TRUE(redirect.starts_with("http://127.0.0.1:" + std::to_string(allotd_.port()) +
                                     "/ui/oidc/callback?"))
        << redirect;
    return path_of(redirect);
  }

  std::string issuer_;
};

TEST_F(OidcBrowserLoginTest, TheBrowserLogsInWithTheCodeAndPkceToTheSessionCookieOfATeamRole) {
  const Visit started = start("?team=research&role=team-member");
  EXPECT_EQ(query_value(started.location, "code_challenge_method"), "S256");
  EXPECT_EQ(query_value(started.location, "code_challenge").size(), 43U);
  EXPECT_EQ(query_value(started.location, "state"), started.cookies.at("allot_oidc_state"));
  EXPECT_FALSE(query_value(started.location, "nonce").empty());
  const std::string callback = sign_in(started.location, "carol");

  const Visit back =
      visit(callback, {{"allot_oidc_state", started.cookies.at("allot_oidc_state")}});

  ASSERT_EQ(back.status, 303) << back.body;
  EXPECT_EQ(back.location, "/ui/#/overview");
  EXPECT_EQ(cookie_of(back, "allot_oidc_state"), "") << "the state cookie is cleared";
  const std::string session = cookie_of(back, "allot_session");
  ASSERT_TRUE(session.starts_with("allots_")) << session;
  const Visit me = visit("/ui/session", {{"allot_session", session}});
  ASSERT_EQ(me.status, 200) << me.body;
  const json who = json::parse(me.body);
  EXPECT_EQ(who.value("subject", ""), "carol") << "the username claim, as the CLI's login maps it";
  EXPECT_EQ(who["groups"], (json{"platform-admins", "research"}));
  EXPECT_EQ(who.value("team", ""), "research");
  EXPECT_EQ(who.value("role", ""), "team-member");
  EXPECT_EQ(who.value("csrfToken", "").size(), 64U);
  // The session acts as research's team-member, not as the cluster admin carol is.
  EXPECT_EQ(visit("/api/v1/teams", {{"allot_session", session}}).status, 403);
  EXPECT_EQ(visit("/api/v1/namespaces/research/workloads", {{"allot_session", session}}).status,
            200);

  // The same callback again (a replayed state and code): refused.
  const Visit replayed =
      visit(callback, {{"allot_oidc_state", started.cookies.at("allot_oidc_state")}});
  EXPECT_EQ(replayed.status, 400) << replayed.body;
  EXPECT_NE(replayed.body.find("was used already"), std::string::npos) << replayed.body;
  EXPECT_TRUE(replayed.cookies.find("allot_session") == replayed.cookies.end());

  // The login and the refused replay are in the audit log, without the code.
  const Reply audit = api_.get("/api/v1/audit");
  ASSERT_EQ(audit.status, 200) << audit.describe();
  int logins = 0;
  int refusals = 0;
  for (const json& item : audit.json.value("items", json::array())) {
    EXPECT_EQ(item.value("requestURI", "").find("code="), std::string::npos) << item;
    if (item.value("requestURI", "") != "/ui/oidc/callback") continue;
    const int code = item["responseStatus"].value("code", 0);
    if (code == 303 && item["user"].value("username", "") == "carol") ++logins;
    if (code == 400) ++refusals;
  }
  EXPECT_EQ(logins, 1) << audit.body;
  EXPECT_EQ(refusals, 1) << audit.body;
}

TEST_F(OidcBrowserLoginTest, AStateThisBrowserDidNotStartIsRefused) {
  const Visit started = start();
  const std::string callback = sign_in(started.location, "carol");
  const Visit other = start();  // another browser's login

  const Visit without_cookie = visit(callback);
  const Visit wrong_cookie =
      visit(callback, {{"allot_oidc_state", other.cookies.at("allot_oidc_state")}});
  const Visit unknown =
      visit("/ui/oidc/callback?code=x&state=made-up", {{"allot_oidc_state", "made-up"}});

  EXPECT_EQ(without_cookie.status, 400) << without_cookie.body;
  EXPECT_NE(without_cookie.body.find("does not match the one this browser started"),
            std::string::npos)
      << without_cookie.body;
  EXPECT_EQ(wrong_cookie.status, 400) << wrong_cookie.body;
  EXPECT_EQ(unknown.status, 400) << unknown.body;
  EXPECT_NE(unknown.body.find("is unknown"), std::string::npos) << unknown.body;
  EXPECT_NE(unknown.body.find("Back to the login page"), std::string::npos);
  for (const Visit* refused : {&without_cookie, &wrong_cookie, &unknown}) {
    EXPECT_TRUE(refused->cookies.find("allot_session") == refused->cookies.end());
  }
  // The refusals did not use up the real login: with its cookie it still succeeds.
  const Visit back =
      visit(callback, {{"allot_oidc_state", started.cookies.at("allot_oidc_state")}});
  EXPECT_EQ(back.status, 303) << back.body;
}

TEST_F(OidcBrowserLoginTest, ACodeRedeemedAgainOrWithAnotherLoginsVerifierIsRefusedByTheIssuer) {
  const Visit first = start();
  const std::string callback = sign_in(first.location, "carol");
  ASSERT_EQ(visit(callback, {{"allot_oidc_state", first.cookies.at("allot_oidc_state")}}).status,
            303);
  // A second login of this browser, brought back with the first login's (used) code.
  const Visit second = start();
  const std::string state = second.cookies.at("allot_oidc_state");
  const std::string replay =
      "/ui/oidc/callback?code=" + query_value(callback, "code") + "&state=" + state;

  const Visit refused = visit(replay, {{"allot_oidc_state", state}});

  EXPECT_EQ(refused.status, 401) << refused.body;
  EXPECT_NE(refused.body.find("the issuer refused the authorization code"), std::string::npos)
      << refused.body;
  EXPECT_NE(refused.body.find("invalid_grant"), std::string::npos) << refused.body;
  EXPECT_TRUE(refused.cookies.find("allot_session") == refused.cookies.end());
}

TEST_F(OidcBrowserLoginTest, AnIdTokenIssuedForAnotherNonceOpensNoSession) {
  const Visit started = start();
  // The request reaches the issuer with another nonce (as a token minted for
  // another login would carry); state and PKCE challenge are this login's.
  const std::string tampered = with_query_value(started.location, "nonce", "another-login");
  const std::string callback = sign_in(tampered, "carol");

  const Visit back =
      visit(callback, {{"allot_oidc_state", started.cookies.at("allot_oidc_state")}});

  EXPECT_EQ(back.status, 401) << back.body;
  EXPECT_NE(back.body.find("nonce is not this login&#39;s"), std::string::npos) << back.body;
  EXPECT_TRUE(back.cookies.find("allot_session") == back.cookies.end());
}

TEST_F(OidcBrowserLoginTest, TheIssuersErrorAndARoleNotHeldAreShownWithTheirReason) {
  const Visit started = start();
  const std::string state = started.cookies.at("allot_oidc_state");
  const Visit denied = visit(
      "/ui/oidc/callback?error=access_denied&error_description=the+user+said+no&state=" + state,
      {{"allot_oidc_state", state}});
  EXPECT_EQ(denied.status, 401) << denied.body;
  EXPECT_NE(denied.body.find("access_denied"), std::string::npos) << denied.body;
  EXPECT_NE(denied.body.find("the user said no"), std::string::npos) << denied.body;

  // ada has no binding: she may log in but hold no role of research.
  const Visit as_viewer = start("?team=research&role=team-viewer");
  const Visit refused = visit(sign_in(as_viewer.location, "ada"),
                              {{"allot_oidc_state", as_viewer.cookies.at("allot_oidc_state")}});
  EXPECT_EQ(refused.status, 403) << refused.body;
  EXPECT_NE(refused.body.find("does not hold the role"), std::string::npos) << refused.body;
}

// No issuer configured: the login says so, as a page.
TEST(OidcBrowserLoginOff, WithoutAnIssuerTheLoginPageSaysSo) {
  AllotdProcess allotd;
  ASSERT_EQ(allotd.start({}), "");
  httplib::Client http("127.0.0.1", allotd.port());

  const httplib::Result res = http.Get("/ui/oidc/login");

  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 404);
  EXPECT_NE(res->body.find("no OIDC issuer"), std::string::npos) << res->body;
  EXPECT_NE(res->get_header_value("Content-Security-Policy").find("default-src 'none'"),
            std::string::npos);
}

// Behind a proxy that terminates TLS (allotd --external-url): the redirect
// URI the issuer is given is on the proxy's https origin, not the Host allotd
// was reached at over plain HTTP, and the cookies are Secure.
class OidcExternalUrlTest : public OidcBrowserLoginTest {
 protected:
  std::vector<std::string> allotd_flags() override {
    std::vector<std::string> flags = OidcBrowserLoginTest::allotd_flags();
    flags.insert(flags.end(), {"--external-url", "https://dash.example.com:8443/"});
    return flags;
  }
};

TEST_F(OidcExternalUrlTest, TheRedirectUriIsOnTheExternalOriginAndTheCookiesAreSecure) {
  const Visit started = start();
  EXPECT_EQ(query_value(started.location, "redirect_uri"),
            "https://dash.example.com:8443/ui/oidc/callback")
      << started.location;
  httplib::Client http("127.0.0.1", allotd_.port());
  const httplib::Result login = http.Get("/ui/oidc/login");
  ASSERT_TRUE(login);
  EXPECT_NE(login->get_header_value("Set-Cookie").find("; Secure"), std::string::npos)
      << login->get_header_value("Set-Cookie");
  const httplib::Result session =
      http.Post("/ui/session", json{{"token", allotd_.admin_token()}}.dump(), "application/json");
  ASSERT_TRUE(session);
  ASSERT_EQ(session->status, 201) << session->body;
  EXPECT_NE(session->get_header_value("Set-Cookie").find("; Secure"), std::string::npos)
      << session->get_header_value("Set-Cookie");
}

}  // namespace
}  // namespace allot::server_test
