// NameTable: dense ids in the order names were first added, exact lookups
// (no false match through a hash tag or the filter), through many growths.
#include "authz/name_table.h"

#include <string>

#include <gtest/gtest.h>

namespace allot {
namespace {

TEST(NameTable, IdsAreDenseInTheOrderNamesArrive) {
  NameTable table;
  EXPECT_EQ(table.find("ana"), kNoId);
  EXPECT_EQ(table.intern("ana"), 0u);
  EXPECT_EQ(table.intern("vision-devs"), 1u);
  EXPECT_EQ(table.intern("ana"), 0u);
  EXPECT_EQ(table.size(), 2u);
  EXPECT_EQ(table.name(1), "vision-devs");
  EXPECT_EQ(table.find(""), kNoId);
  EXPECT_EQ(table.intern(""), 2u);
  EXPECT_EQ(table.find(""), 2u);
}

TEST(NameTable, EveryNameIsFoundAndNoOtherAfterManyGrowths) {
  NameTable table;
  constexpr uint32_t kNames = 50'000;
  for (uint32_t i = 0; i < kNames; ++i) {
    ASSERT_EQ(table.intern("group-" + std::to_string(i)), i);
  }
  for (uint32_t i = 0; i < kNames; ++i) {
    ASSERT_EQ(table.find("group-" + std::to_string(i)), i);
    ASSERT_EQ(table.find("group-" + std::to_string(i) + "x"), kNoId);
    ASSERT_EQ(table.find("Group-" + std::to_string(i)), kNoId);
  }
  // Names that share their first or last eight bytes, and short ones.
  EXPECT_EQ(table.find("group-1234567890123"), kNoId);
  EXPECT_EQ(table.find("g"), kNoId);
  EXPECT_EQ(table.intern("g"), kNames);
  EXPECT_EQ(table.find("g"), kNames);
}

}  // namespace
}  // namespace allot
