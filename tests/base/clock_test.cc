#include "base/clock.h"

#include <cstdint>

#include <gtest/gtest.h>

namespace allot {
namespace {

TEST(ManualClock, StartsAtTheEpochByDefault) {
  const ManualClock clock;

  EXPECT_EQ(clock.now(), Timestamp::epoch());
}

TEST(ManualClock, StartsAtTheGivenTime) {
  const ManualClock clock(Timestamp::from_millis(5000));

  EXPECT_EQ(clock.now().ms(), 5000);
}

TEST(ManualClock, StandsStillUntilAdvanced) {
  ManualClock clock;
  const Timestamp before = clock.now();

  EXPECT_EQ(clock.now(), before);
  clock.advance(Duration::seconds(30));
  EXPECT_EQ(clock.now(), before + Duration::seconds(30));
  clock.advance(Duration());
  EXPECT_EQ(clock.now(), before + Duration::seconds(30));
}

TEST(ManualClock, SetMovesForwardToTheGivenTime) {
  ManualClock clock;

  clock.set(Timestamp::from_millis(1234));
  EXPECT_EQ(clock.now().ms(), 1234);
  clock.set(Timestamp::from_millis(1234));
  EXPECT_EQ(clock.now().ms(), 1234);
}

TEST(ManualClock, IsUsableThroughTheClockInterface) {
  ManualClock manual(Timestamp::from_millis(10));
  const Clock& clock = manual;

  manual.advance(Duration::millis(5));

  EXPECT_EQ(clock.now().ms(), 15);
}

TEST(ManualClockDeathTest, NeverGoesBackwards) {
  ManualClock clock(Timestamp::from_millis(1000));

  EXPECT_DEATH(clock.advance(Duration::millis(-1)), "invariant violated");
  EXPECT_DEATH(clock.set(Timestamp::from_millis(999)), "invariant violated");
}

TEST(SystemClock, ReadsMillisecondsSinceTheUnixEpoch) {
  const SystemClock clock;
  constexpr int64_t kYear2020Ms = 1'577'836'800'000;

  EXPECT_GT(clock.now().ms(), kYear2020Ms);
}

}  // namespace
}  // namespace allot
