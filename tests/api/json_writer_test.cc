// JsonWriter writes what nlohmann::json::dump() writes for the same values:
// the property the stored workload text relies on.
#include "api/json_writer.h"

#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace allot {
namespace {

std::string nlohmann_text(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

TEST(JsonWriter, NestedContainersMatchNlohmann) {
  JsonWriter out;
  out.begin_object().key("a").begin_array().value(int64_t{1}).begin_object().end_object();
  out.begin_array().end_array().null().end_array();
  out.key("b").value(true).key("c").value(false).key("d").begin_object().key("e").value("x");
  out.end_object().end_object();
  const nlohmann::json expected = {
      {"a", {1, nlohmann::json::object(), nlohmann::json::array(), nullptr}},
      {"b", true},
      {"c", false},
      {"d", {{"e", "x"}}}};
  EXPECT_EQ(out.take(), nlohmann_text(expected));
}

TEST(JsonWriter, NumbersMatchNlohmann) {
  for (const int64_t n : {int64_t{0}, int64_t{-7}, std::numeric_limits<int64_t>::min(),
                          std::numeric_limits<int64_t>::max()}) {
    EXPECT_EQ(JsonWriter().value(n).take(), nlohmann_text(n));
  }
  const uint64_t big = std::numeric_limits<uint64_t>::max();
  EXPECT_EQ(JsonWriter().value(big).take(), nlohmann_text(big));
  for (const double d : {0.001, 0.5, 1.5, 2.0, 12.345, 86400.125, 0.0}) {
    EXPECT_EQ(JsonWriter().value(d).take(), nlohmann_text(d)) << d;
  }
}

TEST(JsonWriter, StringsAreEscapedAsNlohmannEscapesThem) {
  std::string every_control;
  for (char c = 1; c < 0x20; ++c) every_control.push_back(c);
  for (const std::string& text :
       {std::string("plain"), std::string("quote \" backslash \\ slash /"), every_control,
        std::string("caf\xC3\xA9 \xE6\x97\xA5 \xF0\x9F\x98\x80 \x7F"), std::string()}) {
    EXPECT_EQ(JsonWriter().value(text).take(), nlohmann_text(text));
  }
}

TEST(JsonWriter, BytesThatAreNotUtf8BecomeTheReplacementCharacter) {
  const std::string bad =
      "a\xFF"
      "b\xC3";
  const std::string written = JsonWriter().value(bad).take();
  EXPECT_EQ(written,
            "\"a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD\"");
  EXPECT_EQ(nlohmann::json::parse(written),
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD");
}

TEST(JsonWriter, KeysAreEscapedToo) {
  JsonWriter out;
  out.begin_object().key("a\"b").value(int64_t{1}).end_object();
  EXPECT_EQ(out.take(), nlohmann_text({{"a\"b", 1}}));
}

}  // namespace
}  // namespace allot
