#include "cli/output/text_table.h"

#include <gtest/gtest.h>

namespace allot::cli {
namespace {

TEST(TextTable, AlignsTheFirstColumnLeftAndNumbersRight) {
  TextTable table({"TEAM", "JOBS"});
  table.add_row({"research", "7"});
  table.add_row({"llm", "1200"});
  EXPECT_EQ(table.render(),
            "TEAM      JOBS\n"
            "research     7\n"
            "llm       1200\n");
}

TEST(TextTable, ShortRowsArePadded) {
  TextTable table({"A", "B", "C"});
  table.add_row({"x"});
  EXPECT_EQ(table.render(), "A  B  C\nx\n");
}

}  // namespace
}  // namespace allot::cli
