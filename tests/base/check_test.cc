#include "base/check.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

TEST(CheckDeathTest, FailedCheckAbortsNamingTheCondition) {
  const int nodes = 3;

  EXPECT_DEATH(ALLOT_CHECK(nodes == 4), "invariant violated: nodes == 4 at .*check_test.cc:");
}

TEST(Check, PassingCheckContinues) {
  int evaluations = 0;

  ALLOT_CHECK(++evaluations == 1);

  EXPECT_EQ(evaluations, 1);
}

}  // namespace
}  // namespace allot
