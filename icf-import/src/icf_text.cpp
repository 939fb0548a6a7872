#include "icf_text.hpp"

#include <cctype>
#include <limits>

namespace iomark::icf::detail {

namespace {

bool is_token_char(char c, bool spaces) noexcept {
  if (c == ' ') return spaces;
  const auto u = static_cast<unsigned char>(c);
  if (std::isalnum(u) != 0 && u < 0x80) return true;
  constexpr std::string_view kPunctuation = "`~!@#$%^&*()-_=+[]{}\\:;\"'./<>?";
  return kPunctuation.find(c) != std::string_view::npos;
}

void skip_separator(std::string_view& rest) noexcept {
  rest = trim(rest);
  if (!rest.empty() && rest.front() == ',') rest.remove_prefix(1);
  rest = trim(rest);
}

}  // namespace

std::string excerpt(std::string_view text) {
  constexpr std::size_t kMaxShown = 40;
  if (text.size() <= kMaxShown) return std::string(text);
  return std::string(text.substr(0, kMaxShown)) + "...";
}

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  std::uint64_t number = 1;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = start;
    while (end < text.size() && text[end] != '\n' && text[end] != '\r') ++end;
    const std::string_view raw = text.substr(start, end - start);
    lines.push_back(Line{raw, trim(raw), number++});
    if (end < text.size() && text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n') ++end;
    start = end + 1;
  }
  return lines;
}

tl::expected<ScannedInt, std::string> scan_int(std::string_view& rest) {
  const auto first = rest.find_first_of("-0123456789");
  if (first == std::string_view::npos) return tl::unexpected<std::string>("expected an integer");
  std::string_view digits = rest.substr(first);
  digits = digits.substr(0, digits.find_first_not_of("-0123456789"));
  ScannedInt result;
  if (digits.front() == '-') {
    result.negative = true;
    digits.remove_prefix(1);
  }
  if (digits.find('-') != std::string_view::npos) {
    return tl::unexpected<std::string>("an integer has a '-' in the middle or at the end");
  }
  if (digits.empty()) return tl::unexpected<std::string>("expected an integer after '-'");
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  for (const char c : digits) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (result.magnitude > (kMax - digit) / 10) {
      return tl::unexpected<std::string>("the number " + excerpt(digits) + " does not fit in 64 bits");
    }
    result.magnitude = result.magnitude * 10 + digit;
  }
  rest.remove_prefix(first + digits.size() + (result.negative ? 1U : 0U));
  skip_separator(rest);
  return result;
}

tl::expected<std::uint64_t, std::string> scan_version_number(std::string_view& rest) {
  const auto first = rest.find_first_of("0123456789");
  if (first == std::string_view::npos) return tl::unexpected<std::string>("expected three version numbers");
  std::string_view digits = rest.substr(first);
  digits = digits.substr(0, digits.find_first_not_of("0123456789"));
  std::uint64_t value = 0;
  for (const char c : digits) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    // IOmeter keeps version parts in an int; anything beyond 32 bits is not a version.
    if (value > (std::numeric_limits<std::uint32_t>::max() - digit) / 10) {
      return tl::unexpected<std::string>("version number " + excerpt(digits) + " is too large");
    }
    value = value * 10 + digit;
  }
  rest.remove_prefix(first + digits.size());
  skip_separator(rest);
  return value;
}

std::string_view scan_token(std::string_view& rest, bool spaces) {
  std::size_t first = 0;
  while (first < rest.size() && !is_token_char(rest[first], spaces)) ++first;
  std::size_t end = first;
  while (end < rest.size() && is_token_char(rest[end], spaces)) ++end;
  const std::string_view token = rest.substr(first, end - first);
  rest = trim(rest.substr(end));
  return token;
}

}  // namespace iomark::icf::detail
