// The filter grammar as a table: valid filters with whether they match one
// user (RFC 7644 section 3.4.2.2's own examples among them), and invalid
// filters with the byte offset where they stop making sense.
#include "identity/scim/scim_filter.h"

#include <string>

#include <gtest/gtest.h>

#include "identity/scim/scim_error.h"

namespace allot::scim {
namespace {

using json = nlohmann::json;

// Barbara Jensen: a work email (primary) and a home email (not primary).
json barbara() {
  return json::parse(R"({
    "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User",
                "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
    "id": "2819c223-7f76-453a-919d-413861904646",
    "externalId": "ext-Bjensen",
    "userName": "bjensen@example.com",
    "name": {"givenName": "Barbara", "familyName": "Jensen"},
    "displayName": "Babs Jensen",
    "title": "Tour Guide",
    "active": true,
    "loginCount": 5,
    "emails": [{"value": "bjensen@example.com", "type": "work", "primary": true},
               {"value": "babs@jensen.org", "type": "home"}],
    "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User":
        {"employeeNumber": "701984", "department": "Tour Operations"},
    "meta": {"resourceType": "User", "created": "2011-08-01T18:29:49.793Z",
             "lastModified": "2011-08-01T18:29:49.793Z"}
  })");
}

struct MatchCase {
  const char* filter;
  bool matches;
};

class ScimFilterMatch : public testing::TestWithParam<MatchCase> {};

TEST_P(ScimFilterMatch, MatchesBarbaraAsTheRfcSays) {
  const MatchCase& c = GetParam();
  const Result<FilterNode> filter = parse_filter(c.filter);
  ASSERT_TRUE(filter.ok()) << c.filter << ": " << filter.status().to_string();
  EXPECT_EQ(filter_matches(*filter, barbara(), ResourceKind::kUser), c.matches) << c.filter;
  // Written back, it parses to the same tree.
  const std::string written = filter_to_string(*filter);
  const Result<FilterNode> again = parse_filter(written);
  ASSERT_TRUE(again.ok()) << written << ": " << again.status().to_string();
  EXPECT_EQ(*again, *filter) << c.filter << " written as " << written;
}

INSTANTIATE_TEST_SUITE_P(
    Grammar, ScimFilterMatch,
    testing::Values(
        // eq: attribute names, operators and (not caseExact) values ignore case.
        MatchCase{R"(userName eq "bjensen@example.com")", true},
        MatchCase{R"(USERNAME EQ "BJENSEN@EXAMPLE.COM")", true},
        MatchCase{R"(userName Eq "other@example.com")", false},
        // id and externalId are caseExact (RFC 7643 section 3.1).
        MatchCase{R"(id eq "2819c223-7f76-453a-919d-413861904646")", true},
        MatchCase{R"(id eq "2819C223-7F76-453A-919D-413861904646")", false},
        MatchCase{R"(externalId eq "ext-Bjensen")", true},
        MatchCase{R"(externalId eq "EXT-BJENSEN")", false},
        // ne is "not eq": an absent attribute is not equal.
        MatchCase{R"(userName ne "bjensen@example.com")", false},
        MatchCase{R"(title ne "Boss")", true}, MatchCase{R"(nickName ne "Babs")", true},
        // co, sw, ew; sub-attributes.
        MatchCase{R"(name.familyName co "ENS")", true},
        MatchCase{R"(name.familyName co "xyz")", false}, MatchCase{R"(userName sw "BJ")", true},
        MatchCase{R"(userName sw "jensen")", false},
        MatchCase{R"(userName ew "example.com")", true},
        MatchCase{R"(userName ew "example.org")", false},
        MatchCase{R"(name.givenName eq "barbara")", true},
        // pr: present and not empty.
        MatchCase{"title pr", true}, MatchCase{"nickName pr", false}, MatchCase{"emails pr", true},
        MatchCase{"name pr", true}, MatchCase{"phoneNumbers pr", false},
        // Multi-valued: any value; a complex one without a sub-attribute reads "value".
        MatchCase{R"(emails co "jensen.org")", true},
        MatchCase{R"(emails co "nowhere.net")", false}, MatchCase{R"(emails.type eq "home")", true},
        MatchCase{R"(emails.type eq "other")", false},
        // A value path holds its conditions to one value; the flat form does not.
        MatchCase{R"(emails[type eq "work" and value co "example.com"])", true},
        MatchCase{R"(emails[type eq "home" and primary eq true])", false},
        MatchCase{R"(emails.type eq "home" and emails.primary eq true)", true},
        MatchCase{R"(emails[type eq "work"])", true}, MatchCase{R"(emails[type eq "fax"])", false},
        MatchCase{R"(emails[not (type eq "work")])", true},
        // Schema URN prefixes: the extension and the core schema.
        MatchCase{
            R"(urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber eq "701984")",
            true},
        MatchCase{
            R"(urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department sw "tour")",
            true},
        MatchCase{
            R"(urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department eq "R&D")",
            false},
        MatchCase{R"(urn:ietf:params:scim:schemas:core:2.0:User:userName eq "bjensen@example.com")",
                  true},
        // Ordering: dateTime as text, strings ignoring case, numbers as numbers.
        MatchCase{R"(meta.lastModified gt "2011-05-13T04:42:34Z")", true},
        MatchCase{R"(meta.lastModified lt "2011-05-13T04:42:34Z")", false},
        MatchCase{R"(userName gt "A")", true}, MatchCase{R"(userName le "A")", false},
        MatchCase{"loginCount gt 4", true}, MatchCase{"loginCount ge 5", true},
        MatchCase{"loginCount lt 5", false}, MatchCase{"loginCount eq 5.0", true},
        MatchCase{"loginCount le 4.5e0", false},
        // Booleans: eq and ne only; an ordering does not match.
        MatchCase{"active eq true", true}, MatchCase{"active eq FALSE", false},
        MatchCase{"active ne false", true}, MatchCase{"active gt false", false},
        // A value of another type never matches.
        MatchCase{R"(active eq "true")", false}, MatchCase{"userName eq 5", false},
        // null.
        MatchCase{"nickName eq null", true}, MatchCase{"title eq null", false},
        MatchCase{"title ne null", true},
        // JSON escapes in strings.
        MatchCase{R"(displayName eq "Babs\u0020Jensen")", true},
        MatchCase{R"(displayName eq "Babs \"Jensen\"")", false},
        // Precedence: and binds tighter than or; not and parentheses tighter still.
        MatchCase{R"(title pr or userName eq "x" and nickName pr)", true},
        MatchCase{R"((title pr or userName eq "x") and nickName pr)", false},
        MatchCase{R"(not (title pr) or active eq true)", true},
        MatchCase{R"(not(userName eq "bjensen@example.com"))", false},
        MatchCase{R"(not (nickName pr) and active eq true)", true},
        MatchCase{R"(title eq "x" or userName eq "nobody")", false},
        MatchCase{R"((userName eq "x" or (title pr and (active eq true))))", true},
        MatchCase{R"(userName eq "x" or title eq "y" or active eq true)", true},
        MatchCase{R"(title pr and active eq true and nickName pr)", false}));

struct ErrorCase {
  const char* filter;
  size_t offset;
};

class ScimFilterError : public testing::TestWithParam<ErrorCase> {};

TEST_P(ScimFilterError, IsInvalidFilterAtTheOffsetWhereItBreaks) {
  const ErrorCase& c = GetParam();
  const Result<FilterNode> filter = parse_filter(c.filter);
  ASSERT_FALSE(filter.ok()) << c.filter;
  EXPECT_EQ(filter.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(scim_type_of(filter.status()), ScimType::kInvalidFilter) << filter.status().to_string();
  EXPECT_EQ(scim_error_location(filter.status()), "offset " + std::to_string(c.offset))
      << c.filter << ": " << filter.status().to_string();
}

INSTANTIATE_TEST_SUITE_P(
    Grammar, ScimFilterError,
    testing::Values(ErrorCase{"", 0},                                         // nothing
                    ErrorCase{"   ", 3},                                      // only spaces
                    ErrorCase{"userName", 8},                                 // no operator
                    ErrorCase{"userName eq", 11},                             // no value
                    ErrorCase{R"(userName xx "a")", 9},                       // unknown operator
                    ErrorCase{R"(userName eq "open)", 12},                    // unterminated string
                    ErrorCase{R"(userName eq "\x")", 12},                     // not a JSON escape
                    ErrorCase{"userName eq tru", 12},                         // not a literal
                    ErrorCase{"userName eq 1.2.3", 12},                       // not a number
                    ErrorCase{"loginCount gt 1e999", 14},                     // not finite
                    ErrorCase{R"((userName eq "a")", 16},                     // ')' missing
                    ErrorCase{R"(userName eq "a"))", 15},                     // ')' extra
                    ErrorCase{R"(userName eq "a" and)", 19},                  // and of nothing
                    ErrorCase{R"(emails[type eq "work")", 21},                // ']' missing
                    ErrorCase{R"(emails[type eq "work"].value eq "x")", 22},  // PATCH form
                    ErrorCase{R"(emails[type[value eq "a"] eq "b"])", 11},    // nested
                    ErrorCase{R"("a" eq userName)", 0},                       // value first
                    ErrorCase{R"(user%Name eq "a")", 4},                      // bad character
                    ErrorCase{R"(name.given.family eq "a")", 0},              // two dots
                    ErrorCase{
                        R"(urn:ietf:params:scim:schemas:extension:enterprise:2.0:User eq "a")",
                        0}));  // a schema, no attribute

TEST(ScimFilter, RefusesNestingDeeperThanTheLimit) {
  std::string deep;
  for (int i = 0; i < kMaxFilterDepth + 1; ++i) deep += "(";
  deep += "title pr";
  for (int i = 0; i < kMaxFilterDepth + 1; ++i) deep += ")";
  const Result<FilterNode> filter = parse_filter(deep);
  ASSERT_FALSE(filter.ok());
  EXPECT_EQ(scim_type_of(filter.status()), ScimType::kInvalidFilter);

  std::string allowed;
  for (int i = 0; i < kMaxFilterDepth - 1; ++i) allowed += "(";
  allowed += "title pr";
  for (int i = 0; i < kMaxFilterDepth - 1; ++i) allowed += ")";
  EXPECT_TRUE(parse_filter(allowed).ok()) << parse_filter(allowed).status().to_string();
}

TEST(ScimFilter, LongAndChainsStayFlat) {
  // 5,000 operands make one node, not a 5,000-deep tree.
  std::string chain = "title pr";
  for (int i = 0; i < 5000; ++i) chain += " and active eq true";
  const Result<FilterNode> filter = parse_filter(chain);
  ASSERT_TRUE(filter.ok());
  EXPECT_EQ(filter->kind, FilterNode::Kind::kAnd);
  EXPECT_EQ(filter->children.size(), 5001U);
  EXPECT_TRUE(filter_matches(*filter, barbara(), ResourceKind::kUser));
}

TEST(ScimFilter, GroupMembersValueIsCaseExact) {
  const json group = json::parse(R"({"id": "g1", "displayName": "Research",
      "members": [{"value": "User-A", "type": "User"}]})");
  const Result<FilterNode> exact = parse_filter(R"(members[value eq "User-A"])");
  const Result<FilterNode> other_case = parse_filter(R"(members[value eq "user-a"])");
  ASSERT_TRUE(exact.ok() && other_case.ok());
  EXPECT_TRUE(filter_matches(*exact, group, ResourceKind::kGroup));
  EXPECT_FALSE(filter_matches(*other_case, group, ResourceKind::kGroup));
  const Result<FilterNode> name = parse_filter(R"(displayName eq "RESEARCH")");
  ASSERT_TRUE(name.ok());
  EXPECT_TRUE(filter_matches(*name, group, ResourceKind::kGroup));
}

TEST(ScimPatchPath, ReadsAttributeSubAttributeAndValuePaths) {
  const Result<PatchPath> plain = parse_patch_path("name.givenName");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->attribute, (AttributePath{"", "name", "givenName"}));
  EXPECT_FALSE(plain->value_filter.has_value());

  const Result<PatchPath> email = parse_patch_path(R"(emails[type eq "work"].value)");
  ASSERT_TRUE(email.ok()) << email.status().to_string();
  EXPECT_EQ(email->attribute, (AttributePath{"", "emails", "value"}));
  ASSERT_TRUE(email->value_filter.has_value());
  EXPECT_EQ(filter_to_string(*email->value_filter), R"(type eq "work")");

  const Result<PatchPath> manager =
      parse_patch_path("urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value");
  ASSERT_TRUE(manager.ok());
  EXPECT_EQ(manager->attribute,
            (AttributePath{"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User", "manager",
                           "value"}));

  const Result<PatchPath> extension =
      parse_patch_path("urn:ietf:params:scim:schemas:extension:enterprise:2.0:User");
  ASSERT_TRUE(extension.ok());
  EXPECT_TRUE(extension->attribute.attribute.empty());

  for (const char* bad : {"", R"(emails[type eq "work"].)", R"(emails[type eq "work"]x)",
                          "name..givenName", R"(members[value eq "a")"}) {
    const Result<PatchPath> path = parse_patch_path(bad);
    ASSERT_FALSE(path.ok()) << bad;
    EXPECT_EQ(scim_type_of(path.status()), ScimType::kInvalidPath) << bad;
  }
}

}  // namespace
}  // namespace allot::scim
