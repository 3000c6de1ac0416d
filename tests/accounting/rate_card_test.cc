#include "accounting/rate_card.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

Timestamp at_hour(int64_t h) { return Timestamp::from_millis(h * 3'600'000); }

TEST(RateCard, APriceChangeAppliesFromItsTimeOn) {
  auto card = RateCard::create(
      {{2, "h100", at_hour(5), {3.0, 0, 0, "USD"}}, {1, "h100", at_hour(0), {2.0, 0, 0, "USD"}}});
  ASSERT_TRUE(card.ok()) << card.status().to_string();
  const auto segments = card->segments("h100", at_hour(1), at_hour(10));
  ASSERT_EQ(segments.size(), 2u);
  EXPECT_EQ(segments[0].version, 1);
  EXPECT_EQ(segments[0].from, at_hour(1));
  EXPECT_EQ(segments[0].to, at_hour(5));
  EXPECT_EQ(segments[1].version, 2);
  EXPECT_EQ(segments[1].to, at_hour(10));
  EXPECT_DOUBLE_EQ(card->price(2).gpu_hour, 3.0);
}

TEST(RateCard, ASpanBeforeTheFirstVersionIsUnpriced) {
  auto card = RateCard::create({{1, "a100", at_hour(4), {1.0, 0, 0, "EUR"}}});
  ASSERT_TRUE(card.ok());
  const auto segments = card->segments("a100", at_hour(0), at_hour(6));
  ASSERT_EQ(segments.size(), 2u);
  EXPECT_EQ(segments[0].version, kNoRateCard);
  EXPECT_EQ(segments[1].version, 1);
  EXPECT_DOUBLE_EQ(card->price(kNoRateCard).gpu_hour, 0.0);
  EXPECT_EQ(card->segments("other", at_hour(0), at_hour(1)).front().version, kNoRateCard);
}

TEST(RateCard, RejectsDuplicateVersionsAndVersionsOutOfTimeOrder) {
  EXPECT_FALSE(RateCard::create({{1, "h100", at_hour(0), {}}, {1, "a100", at_hour(0), {}}}).ok());
  const auto backwards =
      RateCard::create({{1, "h100", at_hour(5), {}}, {2, "h100", at_hour(5), {}}});
  ASSERT_FALSE(backwards.ok());
  EXPECT_NE(backwards.status().message().find("does not start after version 1"), std::string::npos);
  EXPECT_FALSE(RateCard::create({{0, "h100", at_hour(0), {}}}).ok());
}

}  // namespace
}  // namespace allot
