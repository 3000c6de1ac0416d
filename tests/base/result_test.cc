#include "base/result.h"

#include <memory>
#include <string>
#include <utility>

#include <gtest/gtest.h>

namespace allot {
namespace {

Result<int> parse_digit(char c) {
  if (c < '0' || c > '9') return invalid_argument("not a digit", std::string(1, c));
  return c - '0';
}

// Adds two digits, propagating the first error.
Result<int> add_digits(char a, char b) {
  ALLOT_ASSIGN_OR_RETURN(int x, parse_digit(a));
  ALLOT_ASSIGN_OR_RETURN(int y, parse_digit(b));
  return x + y;
}

Status check_digit(char c) {
  ALLOT_RETURN_IF_ERROR(parse_digit(c).status());
  return {};
}

TEST(Result, HoldsAValue) {
  Result<int> result = 7;

  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.value(), 7);
  EXPECT_EQ(*result, 7);
  EXPECT_TRUE(result.status().ok());
}

TEST(Result, HoldsAnError) {
  Result<int> result = not_found("no such team", "spec.cohort");

  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.status(), not_found("no such team", "spec.cohort"));
}

TEST(Result, GivesAccessToMembers) {
  Result<std::string> result = std::string("h100");

  EXPECT_EQ(result->size(), 4U);
  result->append("-pool");
  EXPECT_EQ(*result, "h100-pool");
}

TEST(Result, MovesOutMoveOnlyValues) {
  Result<std::unique_ptr<int>> result = std::make_unique<int>(42);

  std::unique_ptr<int> owned = std::move(result).value();

  ASSERT_NE(owned, nullptr);
  EXPECT_EQ(*owned, 42);
}

TEST(Result, AssignOrReturnAssignsValues) {
  Result<int> sum = add_digits('3', '4');

  ASSERT_TRUE(sum.ok());
  EXPECT_EQ(*sum, 7);
}

TEST(Result, AssignOrReturnPropagatesTheFirstError) {
  Result<int> sum = add_digits('3', 'x');

  EXPECT_EQ(sum.status(), invalid_argument("not a digit", "x"));
  EXPECT_EQ(add_digits('a', 'b').status().details(), "a");
}

TEST(Result, ReturnIfErrorPropagatesErrorsAndPassesOk) {
  EXPECT_TRUE(check_digit('5').ok());
  EXPECT_EQ(check_digit('?').code(), ErrorCode::kInvalidArgument);
}

TEST(ResultDeathTest, ValueOfAnErrorIsAnInvariantViolation) {
  Result<int> result = not_found("gone");

  EXPECT_DEATH((void)result.value(), "invariant violated");
}

TEST(ResultDeathTest, AnOkStatusIsNotAnError) {
  EXPECT_DEATH((void)Result<int>(Status()), "invariant violated");
}

}  // namespace
}  // namespace allot
