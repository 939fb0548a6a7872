#include <gtest/gtest.h>

#include "iomark/results/wall_clock.hpp"

namespace iomark::results {
namespace {

// `date -u -d '2024-05-06 12:03:27' +%s` = 1714997007.
constexpr std::int64_t kNoonMs = 1'714'997'007'512;

TEST(WallClock, IometerStampIsLocalTime) {
  EXPECT_EQ(format_iometer_time(WallClockTime{kNoonMs, 120}), "2024-05-06 14:03:27:512");
  EXPECT_EQ(format_iometer_time(WallClockTime{kNoonMs, 0}), "2024-05-06 12:03:27:512");
  EXPECT_EQ(format_iometer_time(WallClockTime{kNoonMs, -780}), "2024-05-05 23:03:27:512");
  EXPECT_EQ(format_iometer_time(WallClockTime{7, 0}), "1970-01-01 00:00:00:007");
}

TEST(WallClock, ParsesIometerStampsAsUtcReadings) {
  EXPECT_EQ(parse_iometer_time("2024-05-06 12:03:27:512"), (WallClockTime{kNoonMs, 0}));
  EXPECT_EQ(parse_iometer_time("2024-02-29 00:00:00:000")->unix_ms, 1'709'164'800'000);
  EXPECT_FALSE(parse_iometer_time("2023-02-29 00:00:00:000"));
  EXPECT_FALSE(parse_iometer_time("2024-05-06 12:03:27.512"));
  EXPECT_FALSE(parse_iometer_time("2024-05-06 24:00:00:000"));
  EXPECT_FALSE(parse_iometer_time("2024-05-06 12:03:27:51"));
  EXPECT_FALSE(parse_iometer_time(" 2024-05-06 12:03:27:512"));
}

TEST(WallClock, Rfc3339RoundTrip) {
  for (const WallClockTime time : {WallClockTime{kNoonMs, 120}, WallClockTime{kNoonMs, -330}, WallClockTime{0, 0},
                                   WallClockTime{-1, 60}}) {
    const std::string text = format_rfc3339(time);
    EXPECT_EQ(parse_rfc3339(text), time) << text;
  }
  EXPECT_EQ(format_rfc3339(WallClockTime{kNoonMs, 120}), "2024-05-06T14:03:27.512+02:00");
  EXPECT_EQ(format_rfc3339(WallClockTime{kNoonMs, -330}), "2024-05-06T06:33:27.512-05:30");
  EXPECT_EQ(format_rfc3339(WallClockTime{-1, 0}), "1969-12-31T23:59:59.999+00:00");
}

TEST(WallClock, Rfc3339Variants) {
  EXPECT_EQ(parse_rfc3339("2024-05-06T12:03:27Z"), (WallClockTime{kNoonMs - 512, 0}));
  EXPECT_EQ(parse_rfc3339("2024-05-06T12:03:27.5123456Z"), (WallClockTime{kNoonMs, 0}));
  EXPECT_EQ(parse_rfc3339("2024-05-06T12:03:27.5Z"), (WallClockTime{kNoonMs - 12, 0}));
  EXPECT_FALSE(parse_rfc3339("2024-05-06T12:03:27"));
  EXPECT_FALSE(parse_rfc3339("2024-05-06 12:03:27Z"));
  EXPECT_FALSE(parse_rfc3339("2024-05-06T12:03:27.Z"));
  EXPECT_FALSE(parse_rfc3339("2024-13-06T12:03:27Z"));
  EXPECT_FALSE(parse_rfc3339("2024-05-06T12:03:27+2:00"));
  EXPECT_FALSE(parse_rfc3339("2024-05-06T12:03:27Zjunk"));
}

TEST(WallClock, NowCarriesAPlausibleOffset) {
  const WallClockTime now = wall_clock_now();
  EXPECT_GT(now.unix_ms, kNoonMs);
  EXPECT_LE(now.utc_offset_minutes, 14 * 60);
  EXPECT_GE(now.utc_offset_minutes, -12 * 60);
}

}  // namespace
}  // namespace iomark::results
