// RateLimiter: token buckets per client, on instants the test chooses.
#include "server/rate_limiter.h"

#include <gtest/gtest.h>

namespace allot::server {
namespace {

using std::chrono::milliseconds;
const RateLimiter::Instant kStart{std::chrono::seconds(1000)};

TEST(RateLimiter, ABurstPassesThenTheRateHolds) {
  RateLimiter limiter(/*per_second=*/10, /*burst=*/3);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.take("a", kStart).allowed) << i;
  const RateDecision refused = limiter.take("a", kStart);
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.retry_after, milliseconds(100));
  EXPECT_FALSE(limiter.take("a", kStart + milliseconds(50)).allowed);
  EXPECT_TRUE(limiter.take("a", kStart + milliseconds(150)).allowed);
}

TEST(RateLimiter, ClientsHaveBucketsOfTheirOwn) {
  RateLimiter limiter(1, 1);
  EXPECT_TRUE(limiter.take("a", kStart).allowed);
  EXPECT_FALSE(limiter.take("a", kStart).allowed);
  EXPECT_TRUE(limiter.take("b", kStart).allowed);
}

TEST(RateLimiter, ABucketRefillsOnlyUpToTheBurst) {
  RateLimiter limiter(100, 2);
  EXPECT_TRUE(limiter.take("a", kStart).allowed);
  const RateLimiter::Instant later = kStart + std::chrono::hours(1);
  EXPECT_TRUE(limiter.take("a", later).allowed);
  EXPECT_TRUE(limiter.take("a", later).allowed);
  EXPECT_FALSE(limiter.take("a", later).allowed);
}

TEST(RateLimiter, AFloodOfNewClientsDoesNotGrowTheTableAndBusyOnesStayLimited) {
  RateLimiter limiter(1, 1, /*max_keys=*/2);
  EXPECT_TRUE(limiter.take("busy-1", kStart).allowed);
  EXPECT_TRUE(limiter.take("busy-2", kStart).allowed);
  for (int i = 0; i < 100; ++i) {
    EXPECT_TRUE(limiter.take("new-" + std::to_string(i), kStart).allowed);
  }
  EXPECT_EQ(limiter.keys(), 2u);
  EXPECT_FALSE(limiter.take("busy-1", kStart).allowed);
  // Quiet long enough to be full again: their buckets make room.
  EXPECT_TRUE(limiter.take("new-x", kStart + std::chrono::seconds(5)).allowed);
  EXPECT_LE(limiter.keys(), 2u);
}

}  // namespace
}  // namespace allot::server
