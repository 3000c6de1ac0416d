#include "base/time.h"

#include <string>
#include <string_view>

#include <gtest/gtest.h>

namespace allot {
namespace {

Duration parse_ok(std::string_view text) {
  Result<Duration> parsed = parse_duration(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.status().to_string();
  return parsed.ok() ? *parsed : Duration::millis(-1);
}

TEST(Duration, ParsesSeconds) { EXPECT_EQ(parse_ok("30s"), Duration::seconds(30)); }

TEST(Duration, ParsesMilliseconds) { EXPECT_EQ(parse_ok("100ms"), Duration::millis(100)); }

TEST(Duration, ParsesMinutesHoursAndDays) {
  EXPECT_EQ(parse_ok("5m"), Duration::minutes(5));
  EXPECT_EQ(parse_ok("2h"), Duration::hours(2));
  EXPECT_EQ(parse_ok("1d"), Duration::hours(24));
}

TEST(Duration, ParsesCompoundDurations) {
  EXPECT_EQ(parse_ok("1h30m"), Duration::minutes(90));
  EXPECT_EQ(parse_ok("1m30s250ms"), Duration::millis(90'250));
}

TEST(Duration, ParsesABareNumberAsSeconds) {
  EXPECT_EQ(parse_ok("15"), Duration::seconds(15));
  EXPECT_EQ(parse_ok("0.5"), Duration::millis(500));
}

TEST(Duration, ParsesFractionalUnits) {
  EXPECT_EQ(parse_ok("0.5s"), Duration::millis(500));
  EXPECT_EQ(parse_ok("1.5h"), Duration::minutes(90));
}

TEST(Duration, ParsesZero) { EXPECT_EQ(parse_ok("0s"), Duration()); }

TEST(Duration, RejectsAnUnknownUnitNamingTheValidOnes) {
  Result<Duration> parsed = parse_duration("5x");

  EXPECT_EQ(parsed.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(parsed.status().message().find("'x'"), std::string::npos);
  EXPECT_NE(parsed.status().message().find("ms, s, m, h or d"), std::string::npos);
}

TEST(Duration, RejectsEmptyText) {
  EXPECT_EQ(parse_duration("").status().code(), ErrorCode::kInvalidArgument);
}

TEST(Duration, RejectsMalformedText) {
  for (std::string_view text : {"s", "-5s", "1.2.3s", "five", "1h30", "1 h", "."}) {
    EXPECT_EQ(parse_duration(text).status().code(), ErrorCode::kInvalidArgument) << text;
  }
}

TEST(Duration, RejectsDurationsTooLargeToRepresent) {
  EXPECT_EQ(parse_duration("99999999999999999999d").status().code(), ErrorCode::kOutOfRange);
}

// Found by tests/fuzz (duration): the parts were summed in a double, which
// holds whole milliseconds only up to 2^53 (about 285,000 years), so a longer
// duration lost milliseconds and its text did not read back the same.
TEST(Duration, LongDurationsAreExactToTheMillisecond) {
  EXPECT_EQ(parse_ok("346654375925h26m39s872ms"),
            Duration::hours(346'654'375'925) + Duration::millis(26 * 60'000 + 39'000 + 872));
  EXPECT_EQ(parse_ok(Duration::max().to_string()), Duration::max());
  const Duration past_max = Duration::max() + Duration::millis(1);
  EXPECT_EQ(parse_duration(past_max.to_string()).status().code(), ErrorCode::kOutOfRange);
}

TEST(Duration, ToStringUsesTheLargestUnitsFirst) {
  EXPECT_EQ(Duration().to_string(), "0s");
  EXPECT_EQ(Duration::millis(250).to_string(), "250ms");
  EXPECT_EQ(Duration::seconds(30).to_string(), "30s");
  EXPECT_EQ(Duration::minutes(90).to_string(), "1h30m");
  EXPECT_EQ(Duration::hours(48).to_string(), "48h");
  EXPECT_EQ((Duration::hours(1) + Duration::millis(1)).to_string(), "1h1ms");
  EXPECT_EQ(Duration::millis(-1500).to_string(), "-1s500ms");
}

TEST(Duration, ToStringParsesBackToTheSameDuration) {
  for (Duration d : {Duration(), Duration::millis(1), Duration::millis(90'250),
                     Duration::hours(26) + Duration::seconds(3)}) {
    EXPECT_EQ(parse_ok(d.to_string()), d) << d.to_string();
  }
}

TEST(Duration, FactoriesAndArithmeticAgree) {
  EXPECT_EQ(Duration::minutes(2), Duration::seconds(120));
  EXPECT_EQ(Duration::hours(1) - Duration::minutes(30), Duration::minutes(30));
  EXPECT_EQ(Duration::seconds(3) * 4, Duration::seconds(12));
  EXPECT_LT(Duration::millis(999), Duration::seconds(1));
  EXPECT_DOUBLE_EQ(Duration::millis(1500).secs(), 1.5);

  Duration d = Duration::seconds(1);
  d += Duration::millis(5);
  EXPECT_EQ(d.ms(), 1005);
}

TEST(Timestamp, MovesByDurationsAndMeasuresTheGap) {
  const Timestamp start = Timestamp::from_millis(1000);
  const Timestamp later = start + Duration::seconds(2);

  EXPECT_EQ(later.ms(), 3000);
  EXPECT_EQ(later - start, Duration::seconds(2));
  EXPECT_EQ(later - Duration::seconds(2), start);
  EXPECT_LT(start, later);
  EXPECT_LT(later, Timestamp::infinite_future());
  EXPECT_EQ(Timestamp::epoch().ms(), 0);
}

}  // namespace
}  // namespace allot
