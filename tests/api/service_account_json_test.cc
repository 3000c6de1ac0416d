// The JSON of service accounts: the two shapes of a create request, a
// token request, DNS-1123 labels, and answers that hold a token only when
// one was just issued.
#include "api/service_account_json.h"

#include <gtest/gtest.h>

#include "api/dns_label.h"

namespace allot {
namespace {

using nlohmann::json;

TEST(DnsLabel, AcceptsOnlyLowercaseLabelsOfAtMost63Characters) {
  for (const std::string& good :
       std::vector<std::string>{"ci", "a", "ci-2", "0ci", std::string(63, 'a')}) {
    EXPECT_TRUE(is_dns_label(good)) << good;
  }
  for (const std::string& bad : std::vector<std::string>{"", "CI", "-ci", "ci-", "a.b", "a_b",
                                                         "a b", std::string(64, 'a')}) {
    EXPECT_FALSE(is_dns_label(bad)) << bad;
    EXPECT_EQ(check_dns_label(bad, "name").code(), ErrorCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ(check_dns_label(std::string(200, 'A'), "name").message().find(std::string(64, 'A')),
            std::string::npos)
      << "quotes at most 63 characters";
}

TEST(ServiceAccountJson, ACreateRequestIsANameOrAManifest) {
  EXPECT_EQ(*service_account_name_of({{"name", "ci"}}, "research"), "ci");
  EXPECT_EQ(*service_account_name_of({{"apiVersion", "allot/v1"},
                                      {"kind", "ServiceAccount"},
                                      {"metadata", {{"name", "ci"}, {"namespace", "research"}}}},
                                     "research"),
            "ci");
  EXPECT_EQ(*service_account_name_of({{"metadata", {{"name", "ci"}}}}, "research"), "ci");
}

TEST(ServiceAccountJson, AMalformedCreateRequestNamesTheField) {
  const std::vector<std::pair<json, std::string>> cases = {
      {json::array(), ""},
      {json::object(), "metadata"},
      {{{"name", 7}}, "name"},
      {{{"name", ""}}, "name"},
      {{{"name", "ci"}, {"namespace", "x"}}, "namespace"},
      {{{"kind", "Team"}, {"metadata", {{"name", "ci"}}}}, "kind"},
      {{{"apiVersion", "apps/v1"}, {"metadata", {{"name", "ci"}}}}, "apiVersion"},
      {{{"metadata", {{"name", "ci"}, {"namespace", "prod"}}}}, "metadata.namespace"},
      {{{"metadata", {{"name", "ci"}, {"labels", json::object()}}}}, "metadata.labels"},
      {{{"metadata", {{"name", "ci"}}}, {"secrets", json::array()}}, "secrets"},
  };
  for (const auto& [body, field] : cases) {
    const Result<std::string> name = service_account_name_of(body, "research");
    ASSERT_FALSE(name.ok()) << body.dump();
    EXPECT_EQ(name.status().code(), ErrorCode::kInvalidArgument) << body.dump();
    EXPECT_EQ(name.status().details(), field) << body.dump();
  }
}

TEST(ServiceAccountJson, ATokenRequestMayAskForALifetime) {
  EXPECT_FALSE(token_lifetime_of(json::object())->has_value());
  EXPECT_EQ(**token_lifetime_of({{"expirationSeconds", 3600}}), Duration::hours(1));
  EXPECT_EQ(**token_lifetime_of({{"expirationSeconds", INT64_MAX}}),
            Duration::seconds(int64_t{1} << 40))
      << "capped, not overflowed: the service refuses it";
  for (const json& bad : {json{{"expirationSeconds", "1h"}}, json{{"expirationSeconds", 0}},
                          json{{"expirationSeconds", 1.5}}, json{{"expirationSeconds", -1}},
                          json{{"ttl", 5}}, json::array()}) {
    EXPECT_EQ(token_lifetime_of(bad).status().code(), ErrorCode::kInvalidArgument) << bad.dump();
  }
}

TEST(ServiceAccountJson, OnlyTheIssuedTokenAnswerHoldsTheSecret) {
  const ServiceAccountTokenView token{"research.ci.1", Timestamp::from_millis(0),
                                      Timestamp::from_millis(3'600'000), false};
  const ServiceAccountView account{
      "research", "ci", "system:serviceaccount:research:ci", Timestamp::from_millis(0), {token}};
  const json encoded = service_account_json(account);
  EXPECT_EQ(encoded["kind"], "ServiceAccount");
  EXPECT_EQ(encoded["metadata"]["namespace"], "research");
  EXPECT_EQ(encoded["tokens"][0], json({{"id", "research.ci.1"},
                                        {"createdAt", "1970-01-01T00:00:00.000Z"},
                                        {"expiresAt", "1970-01-01T01:00:00.000Z"},
                                        {"expired", false}}));
  const json issued = issued_token_json({"research", "ci", token, "allot_secret"});
  EXPECT_EQ(issued["token"], "allot_secret");
  EXPECT_EQ(issued["serviceAccount"], "ci");
  EXPECT_FALSE(service_account_token_list_json({token})["items"][0].contains("token"));
}

}  // namespace
}  // namespace allot
