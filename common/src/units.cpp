#include "iomark/common/units.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "iomark/common/ascii.hpp"

namespace iomark {

namespace {

std::string format_with_unit(std::uint64_t count, std::uint64_t unit, std::string_view name) {
  if (count % unit == 0) return std::to_string(count / unit) + " " + std::string(name);
  std::array<char, 64> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%.1f %.*s", static_cast<double>(count) / static_cast<double>(unit),
                static_cast<int>(name.size()), name.data());
  return buffer.data();
}

}  // namespace

std::string format_size(Bytes size) {
  constexpr std::uint64_t kKiB = 1024;
  constexpr std::uint64_t kMiB = kKiB * 1024;
  constexpr std::uint64_t kGiB = kMiB * 1024;
  const auto count = size.count();
  if (count >= kGiB) return format_with_unit(count, kGiB, "GiB");
  if (count >= kMiB) return format_with_unit(count, kMiB, "MiB");
  if (count >= kKiB) return format_with_unit(count, kKiB, "KiB");
  return std::to_string(count) + " B";
}

std::optional<Bytes> parse_size(std::string_view text) {
  text = ascii::trim(text);
  std::uint64_t number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  const std::string suffix =
      ascii::to_lower(ascii::trim(std::string_view(end, static_cast<std::size_t>(text.data() + text.size() - end))));
  // Block sizes are binary whatever the spelling: "4k", "4KB" and "4 KiB" all mean 4096.
  std::uint64_t multiplier = 0;
  if (suffix.empty() || suffix == "b") multiplier = 1;
  else if (suffix == "k" || suffix == "kb" || suffix == "kib") multiplier = 1ULL << 10;
  else if (suffix == "m" || suffix == "mb" || suffix == "mib") multiplier = 1ULL << 20;
  else if (suffix == "g" || suffix == "gb" || suffix == "gib") multiplier = 1ULL << 30;
  else if (suffix == "t" || suffix == "tb" || suffix == "tib") multiplier = 1ULL << 40;
  else return std::nullopt;
  if (number > std::numeric_limits<std::uint64_t>::max() / multiplier) return std::nullopt;
  return Bytes(number * multiplier);
}

std::string format_duration(Nanoseconds duration) {
  const auto ns = static_cast<double>(duration.count());
  std::array<char, 32> buffer{};
  auto three_digits = [&](double value, const char* unit) {
    const char* format = value < 10 ? "%.2f %s" : value < 100 ? "%.1f %s" : "%.0f %s";
    std::snprintf(buffer.data(), buffer.size(), format, value, unit);
    return std::string(buffer.data());
  };
  if (std::fabs(ns) < 1e3) return std::to_string(duration.count()) + " ns";
  if (std::fabs(ns) < 1e6) return three_digits(ns / 1e3, "us");
  if (std::fabs(ns) < 1e9) return three_digits(ns / 1e6, "ms");
  return three_digits(ns / 1e9, "s");
}

double megabytes_per_second(Bytes bytes, double window_seconds) noexcept {
  return window_seconds > 0 ? static_cast<double>(bytes.count()) / 1e6 / window_seconds : 0.0;
}

double mebibytes_per_second(Bytes bytes, double window_seconds) noexcept {
  return window_seconds > 0 ? static_cast<double>(bytes.count()) / 1048576.0 / window_seconds : 0.0;
}

}  // namespace iomark
