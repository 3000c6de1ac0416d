// The one calendar (api/civil_time.h): proleptic Gregorian dates in UTC to
// seconds since the Unix epoch and back, as RFC 3339 times and trace dates use it.
#include "api/civil_time.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

constexpr int64_t kDay = 86'400;

bool is_date(int year, int month, int day) { return to_unix_seconds({year, month, day}).ok(); }

TEST(CivilTime, TheEpochIsZero) {
  EXPECT_EQ(*to_unix_seconds({1970, 1, 1, 0, 0, 0}), 0);
  EXPECT_EQ(*to_unix_seconds({1969, 12, 31, 23, 59, 59}), -1);
  EXPECT_EQ(civil_from_unix_seconds(0), (CivilTime{1970, 1, 1, 0, 0, 0}));
  EXPECT_EQ(civil_from_unix_seconds(-1), (CivilTime{1969, 12, 31, 23, 59, 59}));
}

TEST(CivilTime, KnownInstants) {
  EXPECT_EQ(*to_unix_seconds({2025, 11, 30, 5, 20, 0}), 1'764'480'000);
  EXPECT_EQ(*to_unix_seconds({2000, 2, 29, 12, 0, 0}), 951'825'600);
  EXPECT_EQ(*to_unix_seconds({2017, 10, 1}), 1'506'816'000);
  EXPECT_EQ(*to_unix_seconds({2038, 1, 19, 3, 14, 8}), int64_t{1} << 31);
  EXPECT_EQ(civil_from_unix_seconds(1'764'480'000), (CivilTime{2025, 11, 30, 5, 20, 0}));
}

TEST(CivilTime, LeapYearsFollowTheGregorianRule) {
  EXPECT_TRUE(is_date(2024, 2, 29));   // divisible by 4
  EXPECT_FALSE(is_date(2026, 2, 29));  // not
  EXPECT_FALSE(is_date(1900, 2, 29));  // a century
  EXPECT_TRUE(is_date(2000, 2, 29));   // a century divisible by 400
  EXPECT_FALSE(is_date(2024, 2, 30));
  EXPECT_EQ(*to_unix_seconds({2024, 3, 1}) - *to_unix_seconds({2024, 2, 28}), 2 * kDay);
  EXPECT_EQ(*to_unix_seconds({1900, 3, 1}) - *to_unix_seconds({1900, 2, 28}), kDay);
}

TEST(CivilTime, ThirtyDayMonthsHaveNoDay31) {
  for (const int month : {4, 6, 9, 11}) {
    EXPECT_TRUE(is_date(2025, month, 30)) << month;
    EXPECT_FALSE(is_date(2025, month, 31)) << month;
  }
  for (const int month : {1, 3, 5, 7, 8, 10, 12}) EXPECT_TRUE(is_date(2025, month, 31)) << month;
}

TEST(CivilTime, OutOfRangeFieldsAreErrors) {
  EXPECT_FALSE(is_date(2025, 0, 1));
  EXPECT_FALSE(is_date(2025, 13, 1));
  EXPECT_FALSE(is_date(2025, 257, 1));  // not 1 modulo 256
  EXPECT_FALSE(is_date(2025, 1, 0));
  EXPECT_FALSE(is_date(2025, 1, 32));
  EXPECT_FALSE(is_date(40'000, 1, 1));
  EXPECT_FALSE(is_date(-40'000, 1, 1));
  EXPECT_FALSE(to_unix_seconds({2025, 1, 1, 24, 0, 0}).ok());
  EXPECT_FALSE(to_unix_seconds({2025, 1, 1, 0, 60, 0}).ok());
  EXPECT_FALSE(to_unix_seconds({2025, 1, 1, 0, 0, 61}).ok());
  EXPECT_FALSE(to_unix_seconds({2025, 1, 1, -1, 0, 0}).ok());
  const Result<int64_t> bad = to_unix_seconds({2026, 2, 29});
  EXPECT_EQ(bad.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("2026-02-29"), std::string::npos) << bad.status().message();
}

TEST(CivilTime, ALeapSecondIsTheNextMinutesFirst) {
  EXPECT_EQ(*to_unix_seconds({2016, 12, 31, 23, 59, 60}), *to_unix_seconds({2017, 1, 1}));
}

TEST(CivilTime, YearsBeforeTheCommonEra) {
  EXPECT_EQ(*to_unix_seconds({0, 1, 1}), -62'167'219'200);
  EXPECT_TRUE(is_date(0, 2, 29));  // year 0 (1 BC) is divisible by 400
  EXPECT_FALSE(is_date(-1, 2, 29));
  EXPECT_EQ(*to_unix_seconds({0, 1, 1}) - *to_unix_seconds({-1, 1, 1}), 365 * kDay);
  EXPECT_EQ(civil_from_unix_seconds(-62'167'219'201), (CivilTime{-1, 12, 31, 23, 59, 59}));
  EXPECT_EQ(*to_unix_seconds({-32'767, 1, 1}), kMinCivilUnixSeconds);
  EXPECT_EQ(*to_unix_seconds({32'767, 12, 31, 23, 59, 59}), kMaxCivilUnixSeconds);
}

TEST(CivilTime, RoundTripsEverySecondItCanName) {
  for (const int64_t seconds :
       {kMinCivilUnixSeconds, int64_t{-86'401}, int64_t{0}, int64_t{951'825'600},
        int64_t{4'102'444'800}, kMaxCivilUnixSeconds}) {
    const CivilTime civil = civil_from_unix_seconds(seconds);
    EXPECT_EQ(*to_unix_seconds(civil), seconds) << seconds;
  }
  for (int64_t day = -800; day < 800; ++day) {    // every day of four years around the epoch
    const int64_t seconds = day * kDay + 45'296;  // 12:34:56
    const CivilTime civil = civil_from_unix_seconds(seconds);
    EXPECT_EQ(civil.hour, 12);
    EXPECT_EQ(*to_unix_seconds(civil), seconds) << seconds;
  }
}

}  // namespace
}  // namespace allot
