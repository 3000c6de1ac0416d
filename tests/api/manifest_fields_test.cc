// The typed field reader underneath the manifest decoders: values, bounds,
// paths, nulls and unknown keys, over YAML nodes and over JSON values.
#include "api/manifest_fields.h"

#include <deque>
#include <string>

#include <gtest/gtest.h>

namespace allot {
namespace {

Field field(const std::string& yaml, std::string path = "spec") {
  return Field(DocNode(YAML::Load(yaml)), std::move(path));
}

// Fields over JSON refer to their values: the fixture keeps them alive.
class JsonFields : public ::testing::Test {
 protected:
  Field field(const std::string& json, std::string path = "spec") {
    values_.push_back(nlohmann::json::parse(json));
    return Field(DocNode(values_.back()), std::move(path));
  }

 private:
  std::deque<nlohmann::json> values_;
};

TEST(ManifestFields, ChildAndElementPathsExtendThePath) {
  EXPECT_EQ(field("{}").child_path("quota"), "spec.quota");
  EXPECT_EQ(field("{}", "").child_path("kind"), "kind");
  EXPECT_EQ(field("[]", "spec.quota").element_path(2), "spec.quota[2]");
}

TEST(ManifestFields, IntegersAreCheckedAgainstTheirBounds) {
  EXPECT_EQ(field("42").as_int(0, 100).value(), 42);
  EXPECT_EQ(field("-7").as_int(-10, 0).value(), -7);
  EXPECT_EQ(field("-1").as_int(0, 100).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(field("101").as_int(0, 100).status().code(), ErrorCode::kOutOfRange);
  EXPECT_EQ(field("1e3").as_int(0, 10'000).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(field("4.0").as_int(0, 10).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(field("+4").as_int(0, 10).status().code(), ErrorCode::kInvalidArgument);
}

TEST(ManifestFields, NumbersMustBeFinite) {
  EXPECT_DOUBLE_EQ(field("4.50").as_number(0).value(), 4.5);
  EXPECT_FALSE(field(".inf").as_number(0).ok());
  EXPECT_FALSE(field("inf").as_number(0).ok());
  EXPECT_FALSE(field("nan").as_number(0).ok());
  EXPECT_NE(field("-0.5").as_number(0).status().message().find("must be at least 0,"),
            std::string::npos);
}

TEST(ManifestFields, BooleansAreTrueOrFalseOnly) {
  EXPECT_TRUE(field("true").as_bool().value());
  EXPECT_FALSE(field("False").as_bool().value());
  EXPECT_FALSE(field("yes").as_bool().ok());
  EXPECT_FALSE(field("1").as_bool().ok());
}

TEST(ManifestFields, DurationsAndSecondsHaveTheirOwnForms) {
  EXPECT_EQ(field("100ms").as_duration().value(), Duration::millis(100));
  EXPECT_EQ(field("90").as_duration().value(), Duration::seconds(90));
  EXPECT_EQ(field("90").as_seconds().value(), Duration::seconds(90));
  EXPECT_FALSE(field("90s").as_seconds().ok());
  EXPECT_FALSE(field("0s").as_duration(Duration::millis(1)).ok());
}

TEST(ManifestFields, ErrorsCarryThePathAndThePosition) {
  const YAML::Node root = YAML::Load("a: 1\nb: [x]\n");
  const Status status = Field(DocNode(root["b"]), "spec.b").as_string().status();
  EXPECT_EQ(status.details(), "spec.b");
  EXPECT_EQ(status.message(), "expected a string, got a list (line 2, column 4)");
}

TEST(ManifestFields, NullReadsAsAbsent) {
  Result<MapReader> map = MapReader::open(field("{region: ~, account: null, zone:}"));
  ASSERT_TRUE(map.ok());
  std::string region = "default";
  EXPECT_TRUE(map->read_string("region", region).ok());
  EXPECT_EQ(region, "default");
  EXPECT_FALSE(map->get("account").has_value());
  EXPECT_EQ(map->require("zone").status().details(), "spec.zone");
  EXPECT_TRUE(map->finish().ok());
}

TEST(ManifestFields, NullMapReadsAsEmpty) {
  Result<MapReader> map = MapReader::open(field("~"));
  ASSERT_TRUE(map.ok());
  EXPECT_FALSE(map->get("anything").has_value());
  EXPECT_TRUE(map->finish().ok());
}

TEST(ManifestFields, FinishRejectsKeysNobodyAskedFor) {
  Result<MapReader> map = MapReader::open(field("{a: 1, b: 2, c: 3}"));
  ASSERT_TRUE(map.ok());
  (void)map->get("a");
  map->allow("b");
  const Status status = map->finish();
  EXPECT_EQ(status.details(), "spec.c");
  EXPECT_EQ(status.message(), "unknown field 'c'; expected one of a, b (line 1, column 14)");
}

TEST(ManifestFields, OpenRejectsRepeatedAndNonStringKeys) {
  EXPECT_EQ(MapReader::open(field("{a: 1, a: 2}")).status().details(), "spec.a");
  EXPECT_FALSE(MapReader::open(field("{[a]: 1}")).ok());
  EXPECT_FALSE(MapReader::open(field("[a]")).ok());
}

TEST(ManifestFields, EnumsMatchExactSpellings) {
  constexpr EnumName<int> kNames[] = {{"One", 1}, {"Two", 2}};
  EXPECT_EQ(field("Two").as_enum(std::span<const EnumName<int>>(kNames)).value(), 2);
  const Status status = field("one").as_enum(std::span<const EnumName<int>>(kNames)).status();
  EXPECT_NE(status.message().find("unknown value 'one'; expected one of One, Two"),
            std::string::npos);
}

TEST(ManifestFields, ListsDecodeEachElementWithItsPath) {
  Result<std::vector<int64_t>> values = decode_list<int64_t>(
      field("[1, 2, x]", "spec.counts"), [](const Field& f) { return f.as_int(0, 10); });
  EXPECT_EQ(values.status().details(), "spec.counts[2]");
  EXPECT_EQ(field("[a, b]").as_string_list().value(), (std::vector<std::string>{"a", "b"}));
}

TEST_F(JsonFields, ScalarsReadAsYamlReadsTheirText) {
  EXPECT_EQ(field("42").as_int(0, 100).value(), 42);
  EXPECT_EQ(field(R"("42")").as_int(0, 100).value(), 42);
  EXPECT_EQ(field("4.0").as_int(0, 10).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_DOUBLE_EQ(field("0.5").as_number(0).value(), 0.5);
  EXPECT_TRUE(field("true").as_bool().value());
  EXPECT_FALSE(field("1").as_bool().ok());
  EXPECT_EQ(field("8").as_quantity(Resource::kGpu).value(), 8);
  EXPECT_EQ(field(R"("500m")").as_quantity(Resource::kCpu).value(), 500);
  EXPECT_EQ(field(R"("90s")").as_duration().value(), Duration::seconds(90));
  EXPECT_EQ(field("12").as_string().value(), "12");
}

TEST_F(JsonFields, ErrorsCarryThePathButNoPosition) {
  const Status status = field(R"(["x"])", "spec.b").as_string().status();
  EXPECT_EQ(status.details(), "spec.b");
  EXPECT_EQ(status.message(), "expected a string, got a list");
}

TEST_F(JsonFields, MapsRejectUnknownKeysAndReadNullAsAbsent) {
  Result<MapReader> map = MapReader::open(field(R"({"a": 1, "b": null, "c": 3})"));
  ASSERT_TRUE(map.ok());
  int32_t a = 0;
  EXPECT_TRUE(map->read_int("a", a).ok());
  EXPECT_EQ(a, 1);
  EXPECT_FALSE(map->get("b").has_value());
  const Status status = map->finish();
  EXPECT_EQ(status.details(), "spec.c");
  EXPECT_EQ(status.message(), "unknown field 'c'; expected one of a, b");
  EXPECT_FALSE(MapReader::open(field("[1]")).ok());
  EXPECT_TRUE(MapReader::open(field("null")).ok());
}

TEST_F(JsonFields, ListsAndStringMapsKeepTheirPaths) {
  Result<std::vector<int64_t>> values = decode_list<int64_t>(
      field(R"([1, 2, "x"])", "spec.counts"), [](const Field& f) { return f.as_int(0, 10); });
  EXPECT_EQ(values.status().details(), "spec.counts[2]");
  EXPECT_EQ(field(R"(["a", "b"])").as_string_list().value(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(field(R"({"k": "v", "n": 1})").as_string_map().value(),
            (std::map<std::string, std::string>{{"k", "v"}, {"n", "1"}}));
  EXPECT_EQ(field(R"({"k": ["v"]})").as_string_map().status().details(), "spec.k");
}

}  // namespace
}  // namespace allot
