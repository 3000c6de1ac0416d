// attributes and excludedAttributes (RFC 7644 sections 3.4.2.5 and 3.9).
#include "identity/scim/scim_projection.h"

#include <gtest/gtest.h>

namespace allot::scim {
namespace {

using json = nlohmann::json;

json projected_ana() {
  return json::parse(R"({
    "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User",
                "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
    "id": "u1", "userName": "ana@x.org", "name": {"givenName": "Ana", "familyName": "Lima"},
    "emails": [{"value": "ana@x.org", "type": "work"}, {"value": "a@y.org", "type": "home"}],
    "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User":
        {"department": "R&D", "employeeNumber": "42"},
    "meta": {"resourceType": "User"}})");
}

TEST(ScimProjection, AttributesKeepsThoseWithIdAndSchemas) {
  const json projected = project(
      projected_ana(), AttributeSelection::from_parameters(
                           " name.givenName , EMAILS.value,"
                           "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department",
                           "id"));
  EXPECT_EQ(projected, json::parse(R"({
    "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User",
                "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
    "id": "u1", "name": {"givenName": "Ana"},
    "emails": [{"value": "ana@x.org"}, {"value": "a@y.org"}],
    "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {"department": "R&D"}})"));
}

TEST(ScimProjection, ExcludedAttributesDropsThoseButNeverId) {
  json expected = projected_ana();
  expected.erase("emails");
  expected["name"].erase("familyName");
  expected.erase("urn:ietf:params:scim:schemas:extension:enterprise:2.0:User");
  EXPECT_EQ(
      project(projected_ana(), AttributeSelection::from_parameters(
                                   "",
                                   "emails,name.familyName,id,schemas,nonsense[,"
                                   "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User")),
      expected);
  EXPECT_EQ(project(projected_ana(), {}), projected_ana());
}

TEST(ScimProjection, ExcludedAttributesMatchWhateverTheCaseOrSchemaPrefix) {
  json expected = projected_ana();
  expected.erase("emails");
  expected.erase("userName");
  expected["urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"].erase("employeeNumber");
  EXPECT_EQ(
      project(projected_ana(), AttributeSelection::from_parameters(
                                   "",
                                   "EMAILS, urn:ietf:params:scim:schemas:core:2.0:User:username,"
                                   "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:"
                                   "employeeNumber")),
      expected);
}

}  // namespace
}  // namespace allot::scim
