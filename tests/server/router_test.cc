// Router: method and path to handler, 404, 405 with Allow, HEAD as GET, a
// throwing handler as 500.
#include "server/http/router.h"

#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace allot::server {
namespace {

HttpRequest request(std::string method, std::string path) {
  HttpRequest req;
  req.method = std::move(method);
  req.path = std::move(path);
  return req;
}

class RouterTest : public ::testing::Test {
 protected:
  RouterTest() {
    router_.get("/items/([^/]+)", [](const HttpRequest& req, HttpResponse& res) {
      res.set_content("get " + req.matches[1], "text/plain");
    });
    router_.post("/items/([^/]+)", [](const HttpRequest& req, HttpResponse& res) {
      res.set_content("post " + req.matches[1], "text/plain");
    });
    router_.del("/items/([^/]+)/bad",
                [](const HttpRequest&, HttpResponse&) { throw std::runtime_error("boom"); });
  }

  HttpResponse dispatch(std::string method, std::string path) const {
    HttpRequest req = request(std::move(method), std::move(path));
    HttpResponse res;
    router_.dispatch(req, res);
    return res;
  }

  Router router_;
};

TEST_F(RouterTest, TheMethodAndTheWholePathChooseTheRoute) {
  EXPECT_EQ(dispatch("GET", "/items/a").body, "get a");
  EXPECT_EQ(dispatch("POST", "/items/b").body, "post b");
  EXPECT_EQ(dispatch("GET", "/items/a/extra").status, 404);
}

// The method the router compares must outlive the comparison: a method too
// long for the small-string buffer was read from freed memory (and at -O2
// every POST was answered 405).
TEST(Router, AMethodLongerThanTheSmallStringBufferStillChoosesItsRoute) {
  Router router;
  const std::string method = "A-METHOD-LONGER-THAN-ANY-SMALL-STRING-BUFFER";
  router.add(method, "/items",
             [](const HttpRequest&, HttpResponse& res) { res.set_content("long", "text/plain"); });
  HttpRequest req = request(method, "/items");
  HttpResponse res;
  router.dispatch(req, res);
  EXPECT_EQ(res.body, "long");
}

TEST_F(RouterTest, HeadIsServedByTheGetRoute) {
  EXPECT_EQ(dispatch("HEAD", "/items/a").body, "get a");
}

TEST_F(RouterTest, AnUnknownPathIs404WithTheJsonError) {
  const HttpResponse res = dispatch("GET", "/nothing");
  EXPECT_EQ(res.status, 404);
  EXPECT_EQ(res.get_header_value("Content-Type"), "application/json");
  EXPECT_NE(res.body.find("no such route: GET /nothing"), std::string::npos);
}

TEST_F(RouterTest, AKnownPathWithAnotherMethodIs405ListingTheAllowedOnes) {
  const HttpResponse res = dispatch("PUT", "/items/a");
  EXPECT_EQ(res.status, 405);
  EXPECT_EQ(res.get_header_value("allow"), "GET, POST");
  EXPECT_NE(res.body.find("method_not_allowed"), std::string::npos);
}

TEST_F(RouterTest, AThrowingHandlerIsAnswered500) {
  const HttpResponse res = dispatch("DELETE", "/items/a/bad");
  EXPECT_EQ(res.status, 500);
  EXPECT_NE(res.body.find("boom"), std::string::npos);
}

// The patterns are the regular expressions the routes were written in,
// matched segment by segment: the whole path, one segment per capture.
TEST(PathPattern, MatchesTheWholePathSegmentBySegmentAndCapturesInOrder) {
  const PathPattern item("/api/v1/namespaces/([^/]+)/workloads/([^/]+)/cancel");
  std::vector<std::string> captures;
  ASSERT_TRUE(item.match("/api/v1/namespaces/t0/workloads/job-1/cancel", captures));
  EXPECT_EQ(captures, (std::vector<std::string>{"/api/v1/namespaces/t0/workloads/job-1/cancel",
                                                "t0", "job-1"}));
  EXPECT_FALSE(item.match("/api/v1/namespaces/t0/workloads/job-1", captures));
  EXPECT_FALSE(item.match("/api/v1/namespaces/t0/workloads/job-1/cancel/", captures));
  EXPECT_FALSE(item.match("/api/v1/namespaces/t0/workloads/job-1/cancelled", captures));
  EXPECT_FALSE(item.match("/api/v1/namespaces//workloads/job-1/cancel", captures));
  EXPECT_FALSE(item.match("api/v1/namespaces/t0/workloads/job-1/cancel", captures));
  EXPECT_FALSE(item.match("/api/v1/namespaces/t0/x/workloads/job-1/cancel", captures));
}

TEST(PathPattern, AnAlternationMatchesOnlyItsLiteralsAndIsCaptured) {
  const PathPattern objects("/api/v1/(clusters|teams|cohorts)/([^/]+)");
  std::vector<std::string> captures;
  ASSERT_TRUE(objects.match("/api/v1/teams/research", captures));
  EXPECT_EQ(captures, (std::vector<std::string>{"/api/v1/teams/research", "teams", "research"}));
  ASSERT_TRUE(objects.match("/api/v1/cohorts/org", captures));
  EXPECT_EQ(captures[1], "cohorts");
  EXPECT_FALSE(objects.match("/api/v1/team/research", captures));
  EXPECT_FALSE(objects.match("/api/v1/teamsx/research", captures));
  EXPECT_FALSE(objects.match("/api/v1/teams", captures));
}

TEST(PathPattern, ALiteralPathMatchesItselfOnly) {
  const PathPattern health("/healthz");
  std::vector<std::string> captures;
  ASSERT_TRUE(health.match("/healthz", captures));
  EXPECT_EQ(captures, (std::vector<std::string>{"/healthz"}));
  EXPECT_FALSE(health.match("/healthz/", captures));
  EXPECT_FALSE(health.match("/health", captures));
  EXPECT_FALSE(health.match("/", captures));
  EXPECT_FALSE(health.match("", captures));
}

// Only the forms the routes use are understood; any other is a programming
// error caught when the route is added, not a route that never matches.
TEST(PathPatternDeathTest, AnUnknownFormIsRefusedWhenTheRouteIsAdded) {
  EXPECT_DEATH(PathPattern("/items/([0-9]+)"), "invariant");
  EXPECT_DEATH(PathPattern("/items/.*"), "invariant");
  EXPECT_DEATH(PathPattern("items"), "invariant");
}

// A decoded %2F is a '/' of the path, as it was for the regular expressions:
// a name with a slash matches no single segment.
TEST_F(RouterTest, ACaptureIsOneSegmentOfTheDecodedPath) {
  EXPECT_EQ(dispatch("GET", "/items/a/b").status, 404);
  EXPECT_EQ(dispatch("GET", "/items/").status, 404);
  EXPECT_EQ(dispatch("GET", "/items/a b").body, "get a b");
}

TEST(HttpMessage, HeaderNamesCompareCaseInsensitively) {
  HttpRequest req;
  req.headers.emplace("Content-Type", "application/json");
  EXPECT_TRUE(req.has_header("content-type"));
  EXPECT_EQ(req.get_header_value("CONTENT-TYPE"), "application/json");
  HttpResponse res;
  res.set_header("X-A", "1");
  res.set_header("x-a", "2");
  EXPECT_EQ(res.headers.size(), 1u);
  EXPECT_EQ(res.get_header_value("X-A"), "2");
}

}  // namespace
}  // namespace allot::server
