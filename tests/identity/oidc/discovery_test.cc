// Discovery documents, and HttpJwksSource over a fake HttpPort.
#include "identity/oidc/discovery.h"

#include <map>

#include <gtest/gtest.h>

#include "identity/oidc/http_jwks_source.h"
#include "identity/oidc/oidc_http_client.h"

namespace allot::oidc {
namespace {

constexpr char kIssuer[] = "https://idp.example.com/realms/r";

std::string document(const std::string& issuer, const std::string& jwks_uri) {
  return R"({"issuer":")" + issuer + R"(","jwks_uri":")" + jwks_uri +
         R"(","token_endpoint":"https://idp.example.com/token",)"
         R"("device_authorization_endpoint":"https://idp.example.com/device"})";
}

TEST(OidcDiscovery, ReadsTheEndpoints) {
  auto metadata = parse_discovery(document(kIssuer, "https://idp.example.com/jwks"), kIssuer);
  ASSERT_TRUE(metadata.ok()) << metadata.status().to_string();
  EXPECT_EQ(metadata->jwks_uri, "https://idp.example.com/jwks");
  EXPECT_EQ(metadata->token_endpoint, "https://idp.example.com/token");
  EXPECT_EQ(metadata->device_authorization_endpoint, "https://idp.example.com/device");
  EXPECT_EQ(discovery_url(kIssuer), std::string(kIssuer) + "/.well-known/openid-configuration");
  EXPECT_EQ(discovery_url("https://a/"), "https://a/.well-known/openid-configuration");
}

TEST(OidcDiscovery, IssuerMustMatchExactly) {
  for (const char* issuer :
       {"https://idp.example.com/realms/r/", "https://IDP.example.com/realms/r",
        "https://evil.example.com/realms/r"}) {
    EXPECT_FALSE(parse_discovery(document(issuer, "https://idp.example.com/jwks"), kIssuer).ok())
        << issuer;
  }
}

TEST(OidcDiscovery, RefusesPlainHttpAndMalformedDocuments) {
  EXPECT_FALSE(parse_discovery(document(kIssuer, "http://idp.example.com/jwks"), kIssuer).ok());
  EXPECT_TRUE(parse_discovery(document(kIssuer, "http://127.0.0.1:9/jwks"), kIssuer).ok());
  EXPECT_FALSE(parse_discovery(document(kIssuer, "http://127.0.0.1.evil.com/jwks"), kIssuer).ok());
  EXPECT_FALSE(parse_discovery(R"({"issuer":"https://idp.example.com/realms/r"})", kIssuer).ok());
  EXPECT_FALSE(parse_discovery("[]", kIssuer).ok());
  EXPECT_FALSE(parse_discovery("{", kIssuer).ok());
}

TEST(OidcDiscovery, FormUrlencoding) {
  EXPECT_EQ(form_urlencode({{"scope", "openid profile"}, {"x", "a&b=c/é"}}),
            "scope=openid%20profile&x=a%26b%3Dc%2F%C3%A9");
}

class MapHttp final : public HttpPort {
 public:
  std::map<std::string, HttpReply> pages;
  std::vector<std::string> requested;
  Result<HttpReply> get(const std::string& url) override {
    requested.push_back(url);
    const auto it = pages.find(url);
    if (it == pages.end()) return Status(ErrorCode::kUnavailable, "connection refused");
    return it->second;
  }
  Result<HttpReply> post_form(const std::string&, const FormFields&) override {
    return Status(ErrorCode::kInternal, "no POST expected");
  }
};

TEST(OidcDiscovery, HttpJwksSourceDiscoversThenFetches) {
  MapHttp http;
  const std::string discovery = std::string(kIssuer) + "/.well-known/openid-configuration";
  http.pages[discovery] = {200, document(kIssuer, "https://idp.example.com/jwks")};
  http.pages["https://idp.example.com/jwks"] = {200, R"({"keys":[]})"};
  HttpJwksSource source(kIssuer, http);
  auto jwks = source.fetch_jwks();
  ASSERT_TRUE(jwks.ok()) << jwks.status().to_string();
  EXPECT_EQ(*jwks, R"({"keys":[]})");
  EXPECT_TRUE(source.fetch_jwks().ok());
  EXPECT_EQ(http.requested.size(), 3u) << "discovery once, the JWKS twice";
  http.pages["https://idp.example.com/jwks"] = {500, "oops"};
  auto failed = source.fetch_jwks();
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), ErrorCode::kUnavailable);
}

TEST(OidcDiscovery, HttpJwksSourceRefusesAnotherIssuersDocument) {
  MapHttp http;
  http.pages[std::string(kIssuer) + "/.well-known/openid-configuration"] = {
      200, document("https://evil.example.com", "https://evil.example.com/jwks")};
  HttpJwksSource source(kIssuer, http);
  EXPECT_FALSE(source.fetch_jwks().ok());
  EXPECT_EQ(http.requested.size(), 1u) << "never fetched the evil JWKS";
}

TEST(OidcDiscovery, HttpClientRefusesNonHttpsUrlsBeforeConnecting) {
  OidcHttpClient client;
  auto reply = client.get("http://idp.example.com/jwks");
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(reply.status().code(), ErrorCode::kInvalidArgument);
  auto refused = client.get("http://127.0.0.1:1/jwks");  // nothing listens on port 1
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), ErrorCode::kUnavailable);
}

}  // namespace
}  // namespace allot::oidc
