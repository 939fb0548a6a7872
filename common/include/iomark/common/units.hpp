// Units that live in the type: byte counts and the durations the tool reports.
#pragma once

#include <chrono>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace iomark {

// A byte count. Arithmetic is explicit so that a sector count or an I/O count cannot be
// passed where bytes are meant.
class Bytes {
 public:
  constexpr Bytes() = default;
  constexpr explicit Bytes(std::uint64_t count) : count_(count) {}

  [[nodiscard]] constexpr std::uint64_t count() const noexcept { return count_; }

  constexpr Bytes& operator+=(Bytes other) noexcept {
    count_ += other.count_;
    return *this;
  }
  friend constexpr Bytes operator+(Bytes a, Bytes b) noexcept { return Bytes(a.count_ + b.count_); }
  friend constexpr Bytes operator*(Bytes a, std::uint64_t n) noexcept { return Bytes(a.count_ * n); }
  friend constexpr auto operator<=>(Bytes, Bytes) = default;

 private:
  std::uint64_t count_{};
};

inline constexpr Bytes kib(std::uint64_t n) { return Bytes(n * 1024); }
inline constexpr Bytes mib(std::uint64_t n) { return Bytes(n * 1024 * 1024); }
inline constexpr Bytes gib(std::uint64_t n) { return Bytes(n * 1024 * 1024 * 1024); }

// IOmeter's own size captions: 512 -> "512 B", 4096 -> "4 KiB", 1048576 -> "1 MiB";
// sizes that are not whole KiB/MiB keep a decimal ("1.5 KiB").
[[nodiscard]] std::string format_size(Bytes size);

// Parses "4096", "4k", "4 KiB", "64KB", "1m", "1 MiB", "2G" (binary multiples, as
// storage engineers mean them for block sizes). Returns nullopt on anything else.
[[nodiscard]] std::optional<Bytes> parse_size(std::string_view text);

using Nanoseconds = std::chrono::duration<std::int64_t, std::nano>;
using Seconds = std::chrono::duration<std::int64_t>;

// "850 ns", "12.3 us", "4.56 ms", "1.20 s": three significant digits for tables.
[[nodiscard]] std::string format_duration(Nanoseconds duration);

// Decimal megabytes per second from a byte count over a window, and binary MiB/s.
[[nodiscard]] double megabytes_per_second(Bytes bytes, double window_seconds) noexcept;
[[nodiscard]] double mebibytes_per_second(Bytes bytes, double window_seconds) noexcept;

}  // namespace iomark
