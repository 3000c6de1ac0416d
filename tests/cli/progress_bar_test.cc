// The trace replay's progress bar: its text, and redraws throttled by an
// injected clock (no sleeping).
#include "cli/output/progress_bar.h"

#include <chrono>
#include <sstream>

#include <gtest/gtest.h>

namespace allot::cli {
namespace {

using std::chrono::milliseconds;
using TimePoint = std::chrono::steady_clock::time_point;

TEST(ProgressBar, LineShowsBarPercentAndCountsWithThousands) {
  EXPECT_EQ(progress_line("policy borrow", 43'000, 82'247),
            "policy borrow: [#####.....] 52% (43,000/82,247 jobs)");
  EXPECT_EQ(progress_line("p", 0, 10), "p: [..........] 0% (0/10 jobs)");
  EXPECT_EQ(progress_line("p", 10, 10), "p: [##########] 100% (10/10 jobs)");
  EXPECT_EQ(with_thousands(1'234'567), "1,234,567");
  EXPECT_EQ(with_thousands(999), "999");
}

TEST(ProgressBar, RedrawsAtMostEveryHundredMillisecondsAndAlwaysAtTheEnd) {
  TimePoint now;
  std::ostringstream out;
  ProgressBar bar(out, [&] { return now; });
  bar.update("p", 1, 10);  // drawn
  now += milliseconds(50);
  bar.update("p", 2, 10);  // too soon
  now += milliseconds(60);
  bar.update("p", 3, 10);   // drawn
  bar.update("p", 10, 10);  // the end is always drawn
  bar.finish();
  EXPECT_EQ(out.str(),
            "\rp: [#.........] 10% (1/10 jobs)"
            "\rp: [###.......] 30% (3/10 jobs)"
            "\rp: [##########] 100% (10/10 jobs)\n");
}

TEST(ProgressBar, FinishWithoutADrawWritesNothing) {
  std::ostringstream out;
  ProgressBar bar(out);
  bar.finish();
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace allot::cli
