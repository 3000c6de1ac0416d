#include "identity/credentials/login_throttle.h"

#include <gtest/gtest.h>

namespace allot::identity {
namespace {

const Timestamp kNow = Timestamp::from_millis(1'700'000'000'000);

TEST(LoginThrottle, FiveFailuresLockTheNameForFifteenMinutes) {
  LoginThrottle throttle;
  for (int i = 0; i < 4; ++i) throttle.record_failure("ana", kNow);
  EXPECT_FALSE(throttle.locked("ana", kNow));

  throttle.record_failure("ana", kNow);

  EXPECT_TRUE(throttle.locked("ana", kNow + Duration::minutes(14)));
  EXPECT_FALSE(throttle.locked("ana", kNow + Duration::minutes(15)));
  EXPECT_FALSE(throttle.locked("bo", kNow)) << "one name's failures lock only that name";
}

TEST(LoginThrottle, ASuccessClearsTheCountAndAnExpiredLockStartsAgain) {
  LoginThrottle throttle(2, Duration::minutes(1));
  throttle.record_failure("ana", kNow);
  throttle.record_success("ana");
  throttle.record_failure("ana", kNow);
  EXPECT_FALSE(throttle.locked("ana", kNow));
  throttle.record_failure("ana", kNow);
  EXPECT_TRUE(throttle.locked("ana", kNow));

  throttle.record_failure("ana", kNow + Duration::minutes(2));

  EXPECT_FALSE(throttle.locked("ana", kNow + Duration::minutes(2)));
}

}  // namespace
}  // namespace allot::identity
