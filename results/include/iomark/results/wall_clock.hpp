// Wall-clock instants as results files record them.
//
// IOmeter stamps results in *local* time ("2024-05-06 14:03:27:512"). A WallClockTime keeps
// the UTC instant together with the UTC offset in force when it was taken, so every writer
// can print local time without consulting the time-zone database again, the JSON format can
// store an unambiguous RFC 3339 stamp, and tests do not depend on the TZ of the machine.
// All functions are pure except wall_clock_now(); all are thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace iomark::results {

struct WallClockTime {
  std::int64_t unix_ms{};             // milliseconds since 1970-01-01T00:00:00Z
  std::int32_t utc_offset_minutes{};  // local time = UTC + offset (e.g. +120 for CEST)
  friend bool operator==(const WallClockTime&, const WallClockTime&) = default;
};

// Now, with the local time zone's current offset (localtime_r).
[[nodiscard]] WallClockTime wall_clock_now();

// "2024-05-06 14:03:27:512": local time with a colon before the milliseconds, as IOmeter
// writes its `'Time Stamp` lines.
[[nodiscard]] std::string format_iometer_time(WallClockTime time);

// Reads the IOmeter form back. The text does not say which zone it was in, so the result
// has utc_offset_minutes = 0 and unix_ms counts the local clock reading as if it were UTC.
// nullopt unless the text is exactly `YYYY-MM-DD HH:MM:SS:mmm` with valid fields.
[[nodiscard]] std::optional<WallClockTime> parse_iometer_time(std::string_view text);

// "2024-05-06T14:03:27.512+02:00" (RFC 3339 with milliseconds; offset always numeric).
[[nodiscard]] std::string format_rfc3339(WallClockTime time);

// Accepts what format_rfc3339 writes, plus `Z` for +00:00 and 0..9 fraction digits
// (truncated to milliseconds). nullopt on anything else.
[[nodiscard]] std::optional<WallClockTime> parse_rfc3339(std::string_view text);

}  // namespace iomark::results
