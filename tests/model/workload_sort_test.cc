// The `sort` values of a workload listing and the `continue` tokens that
// carry a sort and a position (model/workload_sort.h).
#include "model/workload_sort.h"

#include <string>

#include <gtest/gtest.h>

namespace allot {
namespace {

TEST(WorkloadSort, ParsesEveryKeyBothWaysAndNamesItBack) {
  for (const char* name : {"age", "-age", "name", "-name", "namespace", "-namespace", "phase",
                           "-phase", "priority", "-priority", "user", "-user"}) {
    const Result<WorkloadSort> sort = parse_workload_sort(name);
    ASSERT_TRUE(sort.ok()) << name << ": " << sort.status().message();
    EXPECT_EQ(workload_sort_name(*sort), name);
    EXPECT_EQ(sort->descending, name[0] == '-') << name;
  }
  EXPECT_EQ(parse_workload_sort("-priority")->key, WorkloadSortKey::kPriority);
  EXPECT_TRUE(parse_workload_sort("")->is_default());
  EXPECT_TRUE(parse_workload_sort("age")->is_default());
  EXPECT_FALSE(parse_workload_sort("-age")->is_default());
}

TEST(WorkloadSort, AnUnknownSortNamesTheParameterAndTheAllowedValues) {
  for (const char* bad : {"gpus", "Age", "--age", "-", "age,name", "+age"}) {
    const Result<WorkloadSort> sort = parse_workload_sort(bad);
    ASSERT_FALSE(sort.ok()) << bad;
    EXPECT_EQ(sort.status().code(), ErrorCode::kInvalidArgument) << bad;
    EXPECT_EQ(sort.status().details(), "sort") << bad;
    EXPECT_NE(sort.status().message().find("-priority"), std::string::npos)
        << sort.status().message();
    EXPECT_NE(sort.status().message().find(bad), std::string::npos) << sort.status().message();
  }
}

TEST(WorkloadSort, TheDefaultSortsTokenIsThePlainUid) {
  const WorkloadSort age;
  EXPECT_EQ(encode_workload_cursor(age, {{}, 42}), "42");
  EXPECT_EQ(decode_workload_cursor(age, "42")->uid, 42u);
  EXPECT_FALSE(decode_workload_cursor(age, "x").ok());
  EXPECT_FALSE(decode_workload_cursor(age, "-age.42..42").ok());
}

TEST(WorkloadSort, ACursorRoundTripsThroughItsUrlSafeToken) {
  const WorkloadSort by_name = *parse_workload_sort("-name");
  const WorkloadCursor cursor{{0, "a.b/ c%d\xc3\xa9"}, 7};
  const std::string token = encode_workload_cursor(by_name, cursor);
  EXPECT_EQ(token.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-"), std::string::npos)
      << token;
  const Result<WorkloadCursor> back = decode_workload_cursor(by_name, token);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->value, cursor.value);
  EXPECT_EQ(back->uid, 7u);

  const WorkloadSort by_priority = *parse_workload_sort("priority");
  const Result<WorkloadCursor> negative =
      decode_workload_cursor(by_priority, encode_workload_cursor(by_priority, {{-5, ""}, 3}));
  ASSERT_TRUE(negative.ok()) << negative.status().message();
  EXPECT_EQ(negative->value.number, -5);
  EXPECT_EQ(negative->uid, 3u);
}

TEST(WorkloadSort, ATokenFromAnotherSortOrMangledIsRefusedNamingContinue) {
  const WorkloadSort by_name = *parse_workload_sort("name");
  const WorkloadSort by_priority = *parse_workload_sort("priority");
  const std::string token = encode_workload_cursor(by_name, {{0, "w1"}, 9});
  for (const std::string& bad :
       {encode_workload_cursor(by_priority, {{10, ""}, 9}), std::string("9"),
        encode_workload_cursor(*parse_workload_sort("-name"), {{0, "w1"}, 9}), token + "x",
        std::string("name.0.7.9"), std::string("name.0.zz.9"), std::string("name.0.7731"),
        std::string("name..7731.9")}) {
    const Result<WorkloadCursor> cursor = decode_workload_cursor(by_name, bad);
    ASSERT_FALSE(cursor.ok()) << bad;
    EXPECT_EQ(cursor.status().details(), "continue") << bad;
  }
  EXPECT_TRUE(decode_workload_cursor(by_name, token).ok());
}

}  // namespace
}  // namespace allot
