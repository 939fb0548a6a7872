#include "iomark/results/wall_clock.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace iomark::results {
namespace {

using std::chrono::days;
using std::chrono::milliseconds;
using std::chrono::sys_days;

struct CivilTime {
  int year{};
  unsigned month{};
  unsigned day{};
  std::int64_t hour{};
  std::int64_t minute{};
  std::int64_t second{};
  std::int64_t millisecond{};
};

CivilTime local_civil_time(WallClockTime time) {
  const std::int64_t local_ms = time.unix_ms + std::int64_t{time.utc_offset_minutes} * 60'000;
  const std::chrono::sys_time<milliseconds> point{milliseconds{local_ms}};
  const sys_days day = std::chrono::floor<days>(point);
  const std::chrono::year_month_day date{day};
  const std::int64_t in_day = (point - day).count();
  return CivilTime{int(date.year()), unsigned(date.month()), unsigned(date.day()), in_day / 3'600'000,
                   in_day / 60'000 % 60, in_day / 1000 % 60, in_day % 1000};
}

std::optional<std::int64_t> local_ms_from_civil(const CivilTime& civil) {
  const std::chrono::year_month_day date{std::chrono::year{civil.year}, std::chrono::month{civil.month},
                                         std::chrono::day{civil.day}};
  if (!date.ok() || civil.hour > 23 || civil.minute > 59 || civil.second > 59 || civil.millisecond > 999) {
    return std::nullopt;
  }
  const std::int64_t day_ms = std::chrono::duration_cast<milliseconds>(sys_days{date}.time_since_epoch()).count();
  return day_ms + ((civil.hour * 60 + civil.minute) * 60 + civil.second) * 1000 + civil.millisecond;
}

// Reads exactly `digits` decimal digits at `pos`, advancing it.
bool read_digits(std::string_view text, std::size_t& pos, std::size_t digits, std::int64_t& out) {
  if (pos + digits > text.size()) return false;
  out = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    const char c = text[pos + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  pos += digits;
  return true;
}

bool expect(std::string_view text, std::size_t& pos, char c) {
  if (pos >= text.size() || text[pos] != c) return false;
  ++pos;
  return true;
}

// Parses "YYYY-MM-DD?HH:MM:SS" with `separator` in place of '?'.
bool read_date_time(std::string_view text, std::size_t& pos, char separator, CivilTime& civil) {
  std::int64_t year = 0;
  std::int64_t month = 0;
  std::int64_t day = 0;
  if (!read_digits(text, pos, 4, year) || !expect(text, pos, '-') || !read_digits(text, pos, 2, month) ||
      !expect(text, pos, '-') || !read_digits(text, pos, 2, day) || !expect(text, pos, separator) ||
      !read_digits(text, pos, 2, civil.hour) || !expect(text, pos, ':') || !read_digits(text, pos, 2, civil.minute) ||
      !expect(text, pos, ':') || !read_digits(text, pos, 2, civil.second)) {
    return false;
  }
  civil.year = int(year);
  civil.month = unsigned(month);
  civil.day = unsigned(day);
  return true;
}

}  // namespace

WallClockTime wall_clock_now() {
  const auto now = std::chrono::system_clock::now();
  const std::int64_t unix_ms =
      std::chrono::duration_cast<milliseconds>(now.time_since_epoch()).count();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  std::tm local{};
  localtime_r(&seconds, &local);
  return WallClockTime{unix_ms, std::int32_t(local.tm_gmtoff / 60)};
}

std::string format_iometer_time(WallClockTime time) {
  const CivilTime c = local_civil_time(time);
  char text[160];  // room for any value the fields can hold, so nothing is ever cut
  std::snprintf(text, sizeof text, "%04d-%02u-%02u %02lld:%02lld:%02lld:%03lld", c.year, c.month, c.day,
                static_cast<long long>(c.hour), static_cast<long long>(c.minute), static_cast<long long>(c.second),
                static_cast<long long>(c.millisecond));
  return text;
}

std::optional<WallClockTime> parse_iometer_time(std::string_view text) {
  CivilTime civil;
  std::size_t pos = 0;
  if (!read_date_time(text, pos, ' ', civil) || !expect(text, pos, ':') ||
      !read_digits(text, pos, 3, civil.millisecond) || pos != text.size()) {
    return std::nullopt;
  }
  const auto local_ms = local_ms_from_civil(civil);
  if (!local_ms) return std::nullopt;
  return WallClockTime{*local_ms, 0};
}

std::string format_rfc3339(WallClockTime time) {
  const CivilTime c = local_civil_time(time);
  const std::int32_t offset = time.utc_offset_minutes;
  const char sign = offset < 0 ? '-' : '+';
  const std::int32_t magnitude = offset < 0 ? -offset : offset;
  char text[160];  // room for any value the fields can hold, so nothing is ever cut
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02lld:%02lld:%02lld.%03lld%c%02d:%02d", c.year, c.month, c.day,
                static_cast<long long>(c.hour), static_cast<long long>(c.minute), static_cast<long long>(c.second),
                static_cast<long long>(c.millisecond), sign, magnitude / 60, magnitude % 60);
  return text;
}

std::optional<WallClockTime> parse_rfc3339(std::string_view text) {
  CivilTime civil;
  std::size_t pos = 0;
  if (!read_date_time(text, pos, 'T', civil)) return std::nullopt;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    std::size_t digits = 0;
    std::int64_t millis = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (digits < 3) millis = millis * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0 || digits > 9) return std::nullopt;
    for (std::size_t i = digits; i < 3; ++i) millis *= 10;
    civil.millisecond = millis;
  }
  std::int32_t offset = 0;
  if (pos < text.size() && text[pos] == 'Z') {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    const bool negative = text[pos] == '-';
    ++pos;
    std::int64_t hours = 0;
    std::int64_t minutes = 0;
    if (!read_digits(text, pos, 2, hours) || !expect(text, pos, ':') || !read_digits(text, pos, 2, minutes) ||
        hours > 23 || minutes > 59) {
      return std::nullopt;
    }
    offset = std::int32_t(hours * 60 + minutes) * (negative ? -1 : 1);
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  const auto local_ms = local_ms_from_civil(civil);
  if (!local_ms) return std::nullopt;
  return WallClockTime{*local_ms - std::int64_t{offset} * 60'000, offset};
}

}  // namespace iomark::results
