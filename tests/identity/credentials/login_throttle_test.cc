#include "identity/credentials/login_throttle.h"

#include <gtest/gtest.h>

namespace allot::identity {
namespace {

const Timestamp kThrottleNow = Timestamp::from_millis(1'700'000'000'000);

TEST(LoginThrottle, FiveFailuresLockTheNameForFifteenMinutes) {
  LoginThrottle throttle;
  for (int i = 0; i < 4; ++i) throttle.record_failure("ana", kThrottleNow);
  EXPECT_FALSE(throttle.locked("ana", kThrottleNow));

  throttle.record_failure("ana", kThrottleNow);

  EXPECT_TRUE(throttle.locked("ana", kThrottleNow + Duration::minutes(14)));
  EXPECT_FALSE(throttle.locked("ana", kThrottleNow + Duration::minutes(15)));
  EXPECT_FALSE(throttle.locked("bo", kThrottleNow)) << "one name's failures lock only that name";
}

TEST(LoginThrottle, ASuccessClearsTheCountAndAnExpiredLockStartsAgain) {
  LoginThrottle throttle(2, Duration::minutes(1));
  throttle.record_failure("ana", kThrottleNow);
  throttle.record_success("ana");
  throttle.record_failure("ana", kThrottleNow);
  EXPECT_FALSE(throttle.locked("ana", kThrottleNow));
  throttle.record_failure("ana", kThrottleNow);
  EXPECT_TRUE(throttle.locked("ana", kThrottleNow));

  throttle.record_failure("ana", kThrottleNow + Duration::minutes(2));

  EXPECT_FALSE(throttle.locked("ana", kThrottleNow + Duration::minutes(2)));
}

TEST(LoginThrottle, GuessedNamesCannotGrowItWithoutBound) {
  LoginThrottle throttle(5, Duration::minutes(15), /*max_names=*/3);
  for (int i = 0; i < 5; ++i) throttle.record_failure("ana", kThrottleNow);
  ASSERT_TRUE(throttle.locked("ana", kThrottleNow));
  throttle.record_failure("guess-1", kThrottleNow + Duration::minutes(1));
  throttle.record_failure("guess-2", kThrottleNow + Duration::minutes(2));
  EXPECT_EQ(throttle.names(), 3u);
  // Full, every name fresh: the name failed longest ago (ana) makes room.
  throttle.record_failure("guess-3", kThrottleNow + Duration::minutes(3));
  EXPECT_EQ(throttle.names(), 3u);
  EXPECT_FALSE(throttle.locked("ana", kThrottleNow + Duration::minutes(3)));
  // Full again, all stale: they are forgotten at once.
  throttle.record_failure("guess-4", kThrottleNow + Duration::minutes(30));
  EXPECT_EQ(throttle.names(), 1u);
}

}  // namespace
}  // namespace allot::identity
