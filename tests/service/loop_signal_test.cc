// LoopSignal: how long the admission loop rests between passes while only
// submits come, and what ends that rest.
#include "service/control/loop_signal.h"

#include <chrono>

#include <gtest/gtest.h>

namespace allot::testing {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;

TEST(LoopSignalTest, ExtraRestIsThreeTimesTheWorkAndAtLeastTheLeastSubmitRestInAll) {
  EXPECT_EQ(LoopSignal::kLeastSubmitRest, milliseconds(20));
  // A short pass: the whole rest (its work, then the extra) lasts 20 ms.
  EXPECT_EQ(LoopSignal::extra_rest(nanoseconds(0)), milliseconds(20));
  EXPECT_EQ(LoopSignal::extra_rest(milliseconds(1)), milliseconds(19));
  EXPECT_EQ(LoopSignal::extra_rest(milliseconds(5)), milliseconds(15));
  // A long pass (a long queue): three times its work again, as before.
  EXPECT_EQ(LoopSignal::extra_rest(milliseconds(10)), milliseconds(30));
  EXPECT_EQ(LoopSignal::extra_rest(milliseconds(40)), milliseconds(120));
}

TEST(LoopSignalTest, SubmitsDoNotShortenTheRestAndAChangeEndsIt) {
  LoopSignal signal;
  (void)signal.take_flags();
  signal.wake(LoopSignal::Wake::kSubmit);
  const auto started = std::chrono::steady_clock::now();
  ASSERT_TRUE(signal.rest_after_work(nanoseconds(0), LoopSignal::extra_rest(nanoseconds(0))));
  EXPECT_GE(std::chrono::steady_clock::now() - started, LoopSignal::kLeastSubmitRest);
  EXPECT_TRUE(signal.take_flags());  // the submit still asks for a cycle

  signal.wake(LoopSignal::Wake::kChange);
  const auto changed = std::chrono::steady_clock::now();
  ASSERT_TRUE(signal.rest_after_work(nanoseconds(0), std::chrono::seconds(60)));
  EXPECT_LT(std::chrono::steady_clock::now() - changed, std::chrono::seconds(30));
}

}  // namespace
}  // namespace allot::testing
