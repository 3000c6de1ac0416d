// parse_request_target(): the path and query of a request-target, decoded.
#include "server/http/request_target.h"

#include <gtest/gtest.h>

namespace allot::server {
namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

TEST(RequestTarget, SplitsAndDecodesPathAndQuery) {
  const Result<RequestTarget> target =
      parse_request_target("/api/v1/namespaces/vis%69on/workloads?limit=5&phase=Pending%2CRunning");
  ASSERT_TRUE(target.ok()) << target.status().to_string();
  EXPECT_EQ(target->path, "/api/v1/namespaces/vision/workloads");
  EXPECT_EQ(target->params, (Params{{"limit", "5"}, {"phase", "Pending,Running"}}));
}

TEST(RequestTarget, PlusIsASpaceInTheQueryOnly) {
  const Result<RequestTarget> target = parse_request_target("/a+b?x=c+d");
  ASSERT_TRUE(target.ok());
  EXPECT_EQ(target->path, "/a+b");
  EXPECT_EQ(target->params, (Params{{"x", "c d"}}));
}

TEST(RequestTarget, AKeyWithoutValueHasTheEmptyValueAndOrderIsKept) {
  const Result<RequestTarget> target = parse_request_target("/p?b&a=1&b=2");
  ASSERT_TRUE(target.ok());
  EXPECT_EQ(target->params, (Params{{"b", ""}, {"a", "1"}, {"b", "2"}}));
}

TEST(RequestTarget, TheAbsoluteFormGivesItsPath) {
  const Result<RequestTarget> target = parse_request_target("http://allot:7800/healthz?x=1");
  ASSERT_TRUE(target.ok()) << target.status().to_string();
  EXPECT_EQ(target->path, "/healthz");
  EXPECT_EQ(target->params, (Params{{"x", "1"}}));
}

TEST(RequestTarget, BadTargetsAreInvalidArgumentsThatQuoteThem) {
  for (const char* bad : {"/x?a=%zz", "/%", "*", "allot:7800", "", "relative/path"}) {
    const Result<RequestTarget> target = parse_request_target(bad);
    ASSERT_FALSE(target.ok()) << bad;
    EXPECT_EQ(target.status().code(), ErrorCode::kInvalidArgument) << bad;
    EXPECT_EQ(target.status().details(), "request-target") << bad;
  }
}

TEST(RequestTarget, ALongBadTargetIsQuotedShort) {
  const Result<RequestTarget> target = parse_request_target("/%zz" + std::string(5000, 'a'));
  ASSERT_FALSE(target.ok());
  EXPECT_LT(target.status().message().size(), 300u);
}

TEST(RequestTarget, TooManyParametersAreRefused) {
  std::string many = "/p?";
  for (size_t i = 0; i <= kMaxQueryParameters; ++i) many += "k" + std::to_string(i) + "=1&";
  EXPECT_FALSE(parse_request_target(many).ok());
}

}  // namespace
}  // namespace allot::server
