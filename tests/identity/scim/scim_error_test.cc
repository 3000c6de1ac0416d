// SCIM error bodies (RFC 7644 section 3.12) and the discovery documents.
#include "identity/scim/scim_error.h"

#include <gtest/gtest.h>

#include "identity/scim/scim_discovery.h"

namespace allot::scim {
namespace {

using json = nlohmann::json;

TEST(ScimError, BodyCarriesStatusScimTypeAndDetail) {
  const Status status = scim_error(ScimType::kInvalidFilter, "bad filter", "offset 4");
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  const ScimErrorResponse response = scim_error_response(status);
  EXPECT_EQ(response.http_status, 400);
  EXPECT_EQ(response.body, (json{{"schemas", {"urn:ietf:params:scim:api:messages:2.0:Error"}},
                                 {"status", "400"},
                                 {"scimType", "invalidFilter"},
                                 {"detail", "bad filter (at offset 4)"}}));
}

TEST(ScimError, HttpStatusFollowsTheCode) {
  EXPECT_EQ(scim_error_response(not_found("no such user")).http_status, 404);
  EXPECT_FALSE(scim_error_response(not_found("no such user")).body.contains("scimType"));
  EXPECT_EQ(scim_error_response(scim_error(ScimType::kUniqueness, "taken")).http_status, 409);
  EXPECT_EQ(scim_error_response(scim_error(ScimType::kInvalidVers, "stale")).http_status, 412);
  EXPECT_EQ(scim_error_response(Status(ErrorCode::kUnauthenticated, "no token")).http_status, 401);
  EXPECT_EQ(scim_error_response(Status(ErrorCode::kInternal, "bug")).http_status, 500);
}

TEST(ScimError, KeywordSurvivesContextAndBodyStaysValidUtf8) {
  const Status status = scim_error(ScimType::kMutability, "no", "id").with_context("Operations[2]");
  EXPECT_EQ(scim_type_of(status), ScimType::kMutability);
  // A client's invalid UTF-8 in a message is escaped, so the body can be written.
  const Status hostile =
      scim_error(ScimType::kInvalidPath, "invalid path " + quote_input("\xff\xfe\"x"));
  const json body = scim_error_response(hostile).body;
  EXPECT_NO_THROW((void)body.dump());
  EXPECT_NE(body["detail"].get<std::string>().find("\\xff\\xfe"), std::string::npos);
}

TEST(ScimDiscovery, ServiceProviderConfigAnnouncesWhatIsSupported) {
  const json config = service_provider_config({"/scim/v2", 500, {}});
  EXPECT_EQ(config["patch"]["supported"], true);
  EXPECT_EQ(config["bulk"]["supported"], false);
  EXPECT_EQ(config["filter"], (json{{"supported", true}, {"maxResults", 500}}));
  EXPECT_EQ(config["sort"]["supported"], false);
  EXPECT_EQ(config["authenticationSchemes"][0]["type"], "oauthbearertoken");
}

TEST(ScimDiscovery, ResourceTypesAndSchemas) {
  const DiscoveryOptions options;
  const json types = resource_types(options);
  EXPECT_EQ(types["totalResults"], 2);
  EXPECT_EQ(types["Resources"][0]["endpoint"], "/Users");
  EXPECT_EQ(types["Resources"][0]["schemaExtensions"][0]["schema"],
            "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User");
  EXPECT_EQ(types["Resources"][1]["schema"], "urn:ietf:params:scim:schemas:core:2.0:Group");

  const json all = schemas(options);
  EXPECT_EQ(all["totalResults"], 3);
  const json user = schema("URN:IETF:PARAMS:SCIM:SCHEMAS:CORE:2.0:USER", options).value();
  const json& attributes = user["attributes"];
  const auto attribute = [&attributes](const std::string& name) {
    for (const json& a : attributes) {
      if (a["name"] == name) return a;
    }
    return json();
  };
  EXPECT_EQ(attribute("userName")["uniqueness"], "server");
  EXPECT_EQ(attribute("userName")["caseExact"], false);
  EXPECT_EQ(attribute("userName")["required"], true);
  EXPECT_EQ(attribute("password")["returned"], "never");
  EXPECT_EQ(attribute("password")["mutability"], "writeOnly");
  EXPECT_EQ(attribute("groups")["mutability"], "readOnly");
  EXPECT_EQ(attribute("emails")["multiValued"], true);
  EXPECT_EQ(schema("urn:nothing", options).status().code(), ErrorCode::kNotFound);
}

}  // namespace
}  // namespace allot::scim
